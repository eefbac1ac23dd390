//go:build !amd64 && !arm64

package native

// Elsewhere modules cannot be handed to a sandboxed child: their units stay
// Python with that reason.
const sysMemfdCreate = -1
