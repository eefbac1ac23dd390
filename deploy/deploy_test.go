package deploy

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v4"
)

// manifests are the documents of kubernetes.yaml, by kind.
func manifests(t *testing.T) map[string]map[string]any {
	t.Helper()
	data, err := os.ReadFile("kubernetes.yaml")
	if err != nil {
		t.Fatal(err)
	}
	docs := map[string]map[string]any{}
	decoder := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var doc map[string]any
		if err := decoder.Decode(&doc); errors.Is(err, io.EOF) {
			return docs
		} else if err != nil {
			t.Fatal(err)
		}
		docs[doc["kind"].(string)] = doc
	}
}

// at walks a decoded document by keys and list indexes.
func at(t *testing.T, v any, path ...any) any {
	t.Helper()
	for _, step := range path {
		switch key := step.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				t.Fatalf("%v: %q is not under a mapping", path, key)
			}
			v = m[key]
		case int:
			list, ok := v.([]any)
			if !ok || key >= len(list) {
				t.Fatalf("%v: no item %d", path, key)
			}
			v = list[key]
		}
	}
	return v
}

// The manifests hold what the sandbox needs and what keeps it tight: if one
// of these settings goes, the pod either cannot start its sandbox or gives
// away more than it must.
func TestKubernetesManifests(t *testing.T) {
	docs := manifests(t)
	for _, kind := range []string{"Deployment", "Service", "HorizontalPodAutoscaler", "Secret"} {
		if docs[kind] == nil {
			t.Fatalf("kubernetes.yaml has no %s", kind)
		}
	}
	pod := at(t, docs["Deployment"], "spec", "template", "spec")
	container := at(t, pod, "containers", 0)
	security := at(t, container, "securityContext")
	for _, c := range []struct {
		path []any
		want any
	}{
		{[]any{"capabilities", "drop", 0}, "ALL"},
		{[]any{"allowPrivilegeEscalation"}, false},
		{[]any{"privileged"}, false},
		{[]any{"readOnlyRootFilesystem"}, true},
		{[]any{"runAsNonRoot"}, true},
		{[]any{"seccompProfile", "type"}, "Unconfined"},
		{[]any{"appArmorProfile", "type"}, "Unconfined"},
		{[]any{"procMount"}, "Unmasked"},
	} {
		if got := at(t, security, c.path...); got != c.want {
			t.Errorf("securityContext %v = %v, want %v", c.path, got, c.want)
		}
	}
	if at(t, security, "capabilities", "add") != nil {
		t.Error("the sandbox needs no added capability")
	}
	if at(t, pod, "hostUsers") != false || at(t, pod, "automountServiceAccountToken") != false {
		t.Error("the pod needs hostUsers: false (for procMount: Unmasked) and no service account token")
	}
	for _, probe := range []string{"readinessProbe", "livenessProbe"} {
		if at(t, container, probe, "httpGet", "path") != "/healthz" {
			t.Errorf("%s is not /healthz (the one path without a token)", probe)
		}
	}
	if at(t, container, "env", 0, "name") != "SPINE_TOKEN" {
		t.Error("the token does not reach SPINE_TOKEN")
	}
	target := at(t, docs["HorizontalPodAutoscaler"], "spec", "scaleTargetRef")
	if at(t, target, "kind") != "Deployment" || at(t, target, "name") != at(t, docs["Deployment"], "metadata", "name") {
		t.Errorf("the autoscaler scales %v", target)
	}
	if selector := at(t, docs["Service"], "spec", "selector", "app"); selector != at(t, docs["Deployment"], "spec", "template", "metadata", "labels", "app") {
		t.Errorf("the Service selects app=%v, not the pods", selector)
	}
}

// TestImageBuilds builds deploy/Dockerfile and runs the image with the
// options the sandbox needs, then runs a program through it over HTTP. It
// runs wherever a docker daemon answers (CI with docker), and skips, saying
// why, where none does; SPINE_IMAGE_BUILD=0 skips it on purpose. A cold
// build takes minutes; the Dockerfile's layers and .dockerignore keep a
// rebuild after a code change to the Go build alone.
func TestImageBuilds(t *testing.T) {
	if os.Getenv("SPINE_IMAGE_BUILD") == "0" {
		t.Skip("SPINE_IMAGE_BUILD=0: the image build is skipped on request")
	}
	if why := dockerUnusable(); why != "" {
		t.Skipf("no docker daemon answers, so the image is not built (it is, wherever one does): %s", why)
	}
	tag := "spine-image-test:latest"
	// The build must end while the test can still say why it failed: a
	// cold build (base images, packages, modules) under `go test`'s default
	// ten minutes may not finish, and `make image` allows thirty.
	buildCtx := context.Background()
	if deadline, ok := t.Deadline(); ok {
		var cancel context.CancelFunc
		buildCtx, cancel = context.WithDeadline(buildCtx, deadline.Add(-90*time.Second))
		defer cancel()
	}
	build := exec.CommandContext(buildCtx, "docker", "build", "-f", "deploy/Dockerfile", "-t", tag, ".")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); buildCtx.Err() != nil {
		t.Fatalf("docker build did not finish before the test's deadline (a cold cache takes minutes; `make image` allows 30):\n%s", out)
	} else if err != nil {
		t.Fatalf("docker build: %v\n%s", err, out)
	}
	name := fmt.Sprintf("spine-image-test-%d", os.Getpid())
	run := exec.Command("docker", "run", "-d", "--rm", "--name", name, "-p", "127.0.0.1::8080",
		"--security-opt", "seccomp=unconfined", "--security-opt", "apparmor=unconfined",
		"--security-opt", "systempaths=unconfined", "--cap-drop", "ALL", "--read-only", "--tmpfs", "/tmp",
		"-e", "SPINE_TOKEN=image-test", tag)
	if out, err := run.CombinedOutput(); err != nil {
		t.Fatalf("docker run: %v\n%s", err, out)
	}
	defer exec.Command("docker", "rm", "-f", name).Run()
	port, err := exec.Command("docker", "port", name, "8080").Output()
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + strings.TrimSpace(strings.Split(string(port), "\n")[0])
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for {
		if resp, err := http.Get(url + "/healthz"); err == nil && resp.StatusCode == http.StatusOK {
			resp.Body.Close()
			break
		}
		if ctx.Err() != nil {
			logs, _ := exec.Command("docker", "logs", name).CombinedOutput()
			t.Fatalf("the container never became healthy:\n%s", logs)
		}
		time.Sleep(200 * time.Millisecond)
	}
	req, _ := http.NewRequest(http.MethodPost, url+"/v1/run", strings.NewReader(`{"source": "result = lookup(key=6)"}`))
	req.Header.Set("Authorization", "Bearer image-test")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"value":42`) ||
		!strings.Contains(string(body), `"isolation":"sandbox"`) {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
}

// dockerUnusable says why docker cannot build here ("" when it can): no
// client, or no daemon answering `docker info` within a few seconds (a
// client pointed at a dead socket may otherwise wait far longer).
func dockerUnusable() string {
	if _, err := exec.LookPath("docker"); err != nil {
		return "no docker client on PATH"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "docker", "info", "--format", "{{.ServerVersion}}").CombinedOutput()
	if ctx.Err() != nil {
		return "docker info did not answer within 5 s"
	}
	if err != nil {
		return fmt.Sprintf("docker info: %v: %s", err, lastLine(out))
	}
	return ""
}

func lastLine(out []byte) string {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	return lines[len(lines)-1]
}
