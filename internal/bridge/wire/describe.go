package wire

import "fmt"

// Describe says which isolation layers are active ("sandbox: seccomp,
// namespaces, private root, landlock ABI 7"), so a caller can log what
// protects it.
func (p *Pool) Describe() string {
	l := p.Layers()
	text := "sandbox: seccomp"
	if l.Namespaces {
		text += ", namespaces"
	}
	if l.PrivateRoot {
		text += ", private root"
	}
	if l.Landlock > 0 {
		text += fmt.Sprintf(", landlock ABI %d", l.Landlock)
	}
	if l.Missing != "" {
		text += " (missing: " + l.Missing + ")"
	}
	return text
}
