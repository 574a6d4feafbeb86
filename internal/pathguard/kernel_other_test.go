// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build !linux

package pathguard_test

import "errors"

// kernelResolve is the kernel oracle of the fuzz target; only Linux has one.
func kernelResolve(string) (string, error) { return "", errors.ErrUnsupported }
