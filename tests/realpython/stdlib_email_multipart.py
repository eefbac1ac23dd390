# expect: ok
# value: [["multipart/mixed", "text/plain", "application/octet-stream"], ["d.bin"]]
# email: a multipart message with an attachment.
from email.message import EmailMessage
from email import policy
from email.parser import BytesParser
m = EmailMessage()
m["Subject"] = "Files"
m.set_content("see attachment")
m.add_attachment(b"\x00\x01data", maintype="application", subtype="octet-stream", filename="d.bin")
back = BytesParser(policy=policy.default).parsebytes(m.as_bytes())
result = [p.get_content_type() for p in back.walk()], [a.get_filename() for a in back.iter_attachments()]
