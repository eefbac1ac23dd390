package main

import (
	"os"

	"github.com/spine-sandbox/spine/host"
	"github.com/spine-sandbox/spine/internal/tracehtml"
)

// writeTraceHTML writes the run's page (internal/tracehtml) to file.
func writeTraceHTML(file *os.File, program, source string, resp *host.Response) error {
	if program == "-" {
		program = "<stdin>"
	}
	if err := tracehtml.Render(file, tracehtml.Page{Title: program, Source: source, Response: resp}); err != nil {
		return err
	}
	return file.Close()
}
