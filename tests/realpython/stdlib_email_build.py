# expect: ok
# value: ["Report", "text/plain", "Hello\nWorld\n"]
# email: build a message and read it back.
from email.message import EmailMessage
from email import message_from_string
m = EmailMessage()
m["Subject"] = "Report"
m["From"] = "a@example.com"
m["To"] = "b@example.com"
m.set_content("Hello\nWorld\n")
parsed = message_from_string(m.as_string())
result = [parsed["Subject"], parsed.get_content_type(), parsed.get_payload()]
