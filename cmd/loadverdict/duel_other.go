//go:build !unix

package main

import "os/exec"

// inGroup leaves cmd as it is where process groups are not available:
// its cancellation kills sh only.
func inGroup(cmd *exec.Cmd) {}
