// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

import (
	"sync"

	"golang.org/x/sys/unix"
)

// WarmAsk is a [Keeper] asked for the init it keeps started ahead of the
// run ([AskWarm]): warden serve checks the caller while the caller still
// judges the command and gets its run ready. A run given it in
// Spec.WarmAsk takes it; Close releases one no run took, and warden
// serve then kills the init it held for it.
type WarmAsk struct {
	mu  sync.Mutex
	fd  int
	err error
}

// take hands the connection over to the run, once.
func (w *WarmAsk) take() (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	fd, err := w.fd, w.err
	w.fd = -1
	if err == nil && fd < 0 {
		err = errWarmTaken
	}
	return fd, err
}

// Close closes the connection unless a run took it.
func (w *WarmAsk) Close() {
	if w == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.fd >= 0 {
		unix.Close(w.fd)
		w.fd = -1
	}
}

type warmTakenError struct{}

func (warmTakenError) Error() string { return "the warm sandbox asked for was taken already" }

var errWarmTaken error = warmTakenError{}
