// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

//go:build !race

package hook_test

const raceEnabled = false
