// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Warden Authors

package proxy_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"testing"
)

// echoServerEnv makes the test binary an echo server (see startEchoProcess).
const echoServerEnv = "WARDEN_PROXY_TEST_ECHO_SERVER"

func TestMain(m *testing.M) {
	if os.Getenv(echoServerEnv) == "1" {
		echoServerMain()
		return
	}
	os.Exit(m.Run())
}

// echoServerMain listens on loopback, prints its address, echoes every
// connection and exits when its standard input closes.
func echoServerMain() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(ln.Addr())
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				fmt.Fprintf(os.Stderr, "echo server: %v\n", err)
				return
			}
			go func() { echoConn(c); c.Close() }()
		}
	}()
	io.Copy(io.Discard, os.Stdin)
	os.Exit(0)
}

// echo copies c to itself in user space: io.Copy between TCP connections
// would splice through a pipe, two more descriptors a connection.
func echoConn(c net.Conn) {
	io.CopyBuffer(struct{ io.Writer }{c}, struct{ io.Reader }{c}, make([]byte, 1024))
}

// startEchoProcess runs an echo server in a child process, whose
// descriptors count against its own limit, and returns its address.
func startEchoProcess(t *testing.T) string {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), echoServerEnv+"=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		cmd.Wait()
	})
	addr, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("echo server process: %v", err)
	}
	return addr[:len(addr)-1]
}
