package native

const sysMemfdCreate = 319 // memfd_create(2) on x86_64
