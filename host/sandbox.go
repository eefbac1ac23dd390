package host

// Isolation reports the level this engine runs guests at, and for the
// sandbox which layers are active ("sandbox: seccomp, namespaces, private
// root, landlock ABI 7"), so a caller can log what protects it.
func (e *Engine) Isolation() string { return e.guests.Describe() }

func guestBinary(configured string) (string, error) {
	path, looked := guestArtefact.locate(configured)
	if path != "" {
		return path, nil
	}
	return "", guestArtefact.missing(looked, "SandboxOptions.Binary",
		"sandbox mode (the default; WithIsolation(Inproc) runs without it, for trusted code only)")
}
