// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package sandbox

import (
	"os"
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
	// peek is a second descriptor of the connection, from which serve's
	// answer is read, once, by whichever part of the run needs it first:
	// the user namespace that comes with it is wanted while the view is
	// planned, the init once it starts. Nil when there is none.
	peek *os.File
	once sync.Once
	ans  any // Linux: the *warmAnswer, once read
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
	if w.fd >= 0 {
		unix.Close(w.fd)
		w.fd = -1
	}
	w.mu.Unlock()
	w.releaseAnswer()
}

type warmTakenError struct{}

func (warmTakenError) Error() string { return "the warm sandbox asked for was taken already" }

var errWarmTaken error = warmTakenError{}
