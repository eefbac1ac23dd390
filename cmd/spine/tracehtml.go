package main

import (
	"os"

	"github.com/spine-sandbox/spine/host"
	"github.com/spine-sandbox/spine/internal/tracehtml"
)

// writeTraceHTML writes the run's page (internal/tracehtml) to path.
func writeTraceHTML(path, program, source string, resp *host.Response) error {
	file, err := os.Create(path)
	if err != nil {
		return err
	}
	if program == "-" {
		program = "<stdin>"
	}
	if err := tracehtml.Render(file, tracehtml.Page{Title: program, Source: source, Response: resp}); err != nil {
		file.Close()
		return err
	}
	return file.Close()
}
