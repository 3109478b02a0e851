//go:build unix

package main

import (
	"os/exec"
	"syscall"
)

// inGroup runs cmd in a process group of its own and makes its
// cancellation kill the whole group: sh -c's children (the load
// generator) go with it.
func inGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
