# expect: ok
# value: ["f0dd190c13c467edb0f2c5ac3858d9ac3fc324a208c51526ea1c47fc838c9a93", "9dd4e461268c8034f5c8564e155c67a6", "0fa38cc58395a65f", "2d93cbc1be167bcb1637a4a23cbff01a7878f0c50ee833954ea5221bb1b8c628", "0a38253555ce37f5"]
# hashlib and hmac.
import hashlib, hmac
result = [hashlib.sha256(b"spine").hexdigest(), hashlib.md5(b"x").hexdigest(), hashlib.blake2b(b"y", digest_size=8).hexdigest(), hmac.new(b"key", b"msg", "sha256").hexdigest(), hashlib.pbkdf2_hmac("sha256", b"pw", b"salt", 1000).hex()[:16]]
