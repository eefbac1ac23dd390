//go:build !cgo

// Package inproc is the in-process transport; it needs cgo. Built without it
// (CGO_ENABLED=0), every call reports that, and the sandbox transport serves.
package inproc

import (
	"errors"

	"github.com/spine-sandbox/spine/internal/bridge"
)

// ErrNoCgo is returned by every function of this build.
var ErrNoCgo = errors.New("spine: the in-process guest needs a cgo build (CGO_ENABLED=1)")

// Start reports ErrNoCgo.
func Start() error { return ErrNoCgo }

// Execute reports ErrNoCgo.
func Execute(*bridge.Session, []byte) (*bridge.Result, error) { return nil, ErrNoCgo }

// Interrupt reports false.
func Interrupt(uint64, bridge.Reason) bool { return false }

// Entry reports ErrNoCgo.
func Entry(*bridge.Session, string, []byte) error { return ErrNoCgo }
