# expect: ok
# value: ["aMOpbGxvIHfDtnJsZA==", "-_8=", "MFRA====", "01ab", 2463100623, "spine"]
# base64 and binascii.
import base64, binascii
data = "héllo wörld".encode()
result = [base64.b64encode(data).decode(), base64.urlsafe_b64encode(b"\xfb\xff").decode(), base64.b32encode(b"ab").decode(), binascii.hexlify(b"\x01\xab").decode(), binascii.crc32(b"spine"), base64.b64decode("c3BpbmU=").decode()]
