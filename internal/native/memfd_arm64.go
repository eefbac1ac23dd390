package native

const sysMemfdCreate = 279 // memfd_create(2) on arm64
