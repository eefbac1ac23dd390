package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spine-sandbox/spine/host"
)

func openStream(path string, stdin io.Reader) (io.ReadCloser, error) {
	if path == "-" {
		return io.NopCloser(stdin), nil
	}
	file, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read the program: %w", err)
	}
	return file, nil
}

// runStream feeds the program to a Stream as it is read: each read is one
// chunk (so a pipe from a model streams as it writes), or, with chunkBytes,
// fixed-size chunks with delay between them (a simulated stream).
func runStream(engine *host.Engine, req host.Request, input io.Reader, chunkBytes int, delay time.Duration) (*host.Response, error) {
	stream, err := engine.Stream(context.Background(), req)
	if err != nil {
		return nil, err
	}
	size := chunkBytes
	if size == 0 {
		size = 64 << 10
	}
	buf := make([]byte, size)
	first := true
	for {
		var n int
		if chunkBytes > 0 {
			n, err = io.ReadFull(input, buf)
			if err == io.ErrUnexpectedEOF {
				err = nil
			}
		} else {
			n, err = input.Read(buf)
		}
		if n > 0 {
			if !first && delay > 0 {
				time.Sleep(delay)
			}
			first = false
			if feedErr := stream.Feed(buf[:n]); feedErr != nil {
				stream.Abort()
				return nil, feedErr
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			stream.Abort()
			return nil, fmt.Errorf("reading the program: %w", err)
		}
	}
	return stream.Finish()
}
