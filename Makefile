# spine: `make demo` sets up and runs the example; `make test` sets up and runs
# every test. Both install missing Debian packages first (scripts/setup.sh).

# One CPython for everything: Debian's 3.11. Never the python3 first on PATH.
export PKG_CONFIG_PATH := /usr/lib/x86_64-linux-gnu/pkgconfig
export PKG_CONFIG_LIBDIR := /usr/lib/x86_64-linux-gnu/pkgconfig:/usr/share/pkgconfig
PYTHON := /usr/bin/python3
export SPINE_GUEST := $(CURDIR)/build/guest-c/sandbox/spine-guest
# The native toolchain (compiler binding, libraries, codegen headers) for hot functions.
export SPINE_NATIVE := $(CURDIR)/build/spine-native
# The in-process transport #includes guest-c/*.c, which Go's build cache does
# not track: a digest of those sources in CGO_CFLAGS makes a change rebuild it.
export CGO_CFLAGS := -O2 -g -DSPINE_GUEST_C_DIGEST=$(shell cat guest-c/*.c guest-c/*.h | sha256sum | cut -c1-16)
BUILD := build
ASAN_BUILD := build-asan
JOBS ?= 2

.PHONY: setup build native native-asan demo test test-native test-asan test-go test-python bench image clean

setup:
	@bash scripts/setup.sh

# bin/spine and, beside it, the sandbox launcher bin/spine-guest with the
# zygote module it loads into /usr/bin/python3 (bin/_spine_zygote.so).
build: native
	go build -o bin/spine ./cmd/spine
	cp $(BUILD)/guest-c/sandbox/spine-guest $(BUILD)/guest-c/sandbox/_spine_zygote.so bin/
	rm -rf bin/spine-native && cp -r $(BUILD)/spine-native bin/spine-native

native: setup
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	cmake --build $(BUILD) -j$(JOBS)
	rm -rf $(BUILD)/spine-native
	cmake --install $(BUILD) --prefix $(BUILD)/spine-native --component native >/dev/null

native-asan: setup
	cmake -S . -B $(ASAN_BUILD) -G Ninja -DSPINE_SANITIZE=ON >/dev/null
	cmake --build $(ASAN_BUILD) -j$(JOBS)

demo: build
	cd examples/quickstart && go run . 
	./bin/spine run --demo-tools --plm --inputs '{"keys": [1, 2, 3]}' examples/quickstart/program.py

test-native: native
	cd $(BUILD) && ctest --output-on-failure -j$(JOBS)

test-asan: native-asan
	cd $(ASAN_BUILD) && ctest -L runtime --output-on-failure -j$(JOBS)

test-go: build native
	go vet ./...
	go test -count=1 -timeout 600s ./...
	# The sandbox host needs no cgo: build it, and run its transport's tests, without.
	CGO_ENABLED=0 go build ./...
	CGO_ENABLED=0 go test -count=1 ./internal/bridge/wire/

test-python: native
	PYTHONPATH=guest:tests/programs $(PYTHON) -m pytest -q tests/guest
	PYTHONPATH=$(BUILD)/runtime/python $(PYTHON) -m pytest -q tests/runtime/python
	PYTHONPATH=$(BUILD)/runtime/python:guest $(PYTHON) -m pytest -q -p no:cacheprovider tests/compiler/python

test: test-native test-asan test-python test-go

bench: build native
	bash bench/run.sh

# Builds deploy/Dockerfile and runs a program through the image. `make test`
# runs it too wherever a docker daemon answers (SPINE_IMAGE_BUILD=0 skips it);
# it skips with a message without one.
image:
	SPINE_IMAGE_BUILD=1 go test -count=1 -v -timeout 30m -run TestImageBuilds ./deploy/

clean:
	rm -rf bin $(BUILD) $(ASAN_BUILD)
