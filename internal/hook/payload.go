// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package hook

// This file reads a hook's payload. The rules:
//
//   - At most MaxPayload bytes are kept, so that a hook's memory is
//     bounded whatever the agent writes; deciding a payload allocates
//     at most about 10 times its size (TestDecideMemory).
//   - A longer payload is refused with an error naming the bound: the
//     caller exits 2, which every agent Warden answers treats as a
//     block before the call. Warden cannot read such a payload as the
//     agent will, and an answer guessed from a part of it could allow
//     what the rest says.
//   - The rest of a longer payload is still read, and discarded: an
//     agent whose write to the hook fails may take the hook for broken,
//     and agents run the tool when a hook breaks.
//   - The payload is read in chunks joined once: reading it allocates
//     twice its size, where growing one buffer would allocate up to
//     five times.

import (
	"errors"
	"fmt"
	"io"
)

// ReadPayload reads one hook payload from r. A payload longer than
// [MaxPayload] is read to its end, discarded, and refused with an error
// that names the bound.
func ReadPayload(r io.Reader) ([]byte, error) {
	var chunks [][]byte
	total, size := 0, 4<<10
	for total <= MaxPayload {
		c := make([]byte, min(size, MaxPayload+1-total))
		n, err := io.ReadFull(r, c)
		chunks = append(chunks, c[:n])
		total += n
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("reading the hook payload: %v", err)
		}
		size = min(2*size, 256<<10)
	}
	if total > MaxPayload {
		// Read the rest, a buffer at a time, for the agent's sake.
		if _, err := io.Copy(io.Discard, r); err != nil {
			return nil, fmt.Errorf("reading the hook payload: %v", err)
		}
		return nil, fmt.Errorf("the hook payload is larger than %d MiB (%d bytes), the most Warden reads: it cannot be judged as the agent reads it, so the call is refused", MaxPayload>>20, MaxPayload)
	}
	if len(chunks) == 1 {
		return chunks[0], nil
	}
	out := make([]byte, 0, total)
	for _, c := range chunks {
		out = append(out, c...)
	}
	return out, nil
}
