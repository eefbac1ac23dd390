//go:build !amd64

package native

// cpuFingerprint tells processors apart for the identity's memo: here the
// description the identity itself covers.
func cpuFingerprint() string { return cpuIdentity() }
