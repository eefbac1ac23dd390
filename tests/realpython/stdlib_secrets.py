# expect: ok
# value: [16, 5, true, true]
# secrets: lengths only (values are random).
import secrets
result = [len(secrets.token_hex(8)), len(secrets.token_bytes(5)), secrets.randbelow(10) < 10, len(secrets.token_urlsafe(6)) >= 8]
