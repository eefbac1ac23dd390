// Package deploy holds no code: it is the container image (Dockerfile) and
// the Kubernetes manifests of `spine serve`, and their tests.
package deploy
