# value: {"backup_has_pip":true,"changed":true,"new_has_pipx":true}
# stdout: ""
# effects: [["write_file",{"content":"# Acme CLI\n\nAcme syncs files between machines.\n\n## Install\n\npip install acme-cli\n\n## Usage\n\nacme sync --src ./a --dst ./b\n","path":"/backup/README.md"}],["write_file",{"content":"# Acme CLI\n\nAcme syncs files between machines.\n\n## Install\n\npipx install acme-cli\n\n## Usage\n\nacme sync --src ./a --dst ./b\n","path":"/docs/README.md"}]]
# calls: [["read_file",{"path":"/backup/README.md"}],["read_file",{"path":"/docs/README.md"}],["read_file",{"path":"/docs/README.md"}],["write_file",{"content":"# Acme CLI\n\nAcme syncs files between machines.\n\n## Install\n\npip install acme-cli\n\n## Usage\n\nacme sync --src ./a --dst ./b\n","path":"/backup/README.md"}],["write_file",{"content":"# Acme CLI\n\nAcme syncs files between machines.\n\n## Install\n\npipx install acme-cli\n\n## Usage\n\nacme sync --src ./a --dst ./b\n","path":"/docs/README.md"}]]
# Back up a file, change the original, then compare both.
original = read_file(path="/docs/README.md")
write_file(path="/backup/README.md", content=original)
write_file(path="/docs/README.md", content=original.replace("pip install acme-cli", "pipx install acme-cli"))
new = read_file(path="/docs/README.md")
backup = read_file(path="/backup/README.md")
result = {"changed": new != backup, "backup_has_pip": "pip install" in backup, "new_has_pipx": "pipx" in new}
