# expect: ok
# value: ["example.com", 8080, "/a/b", {"x": ["1"], "y": ["two"]}, "q=a+b&n=2", "%C3%A4/b%20c", "ä", "https://h/c"]
# urllib.parse (no network).
from urllib.parse import urlparse, urlencode, parse_qs, quote, unquote, urljoin
u = urlparse("https://user@example.com:8080/a/b?x=1&y=two#frag")
result = [u.hostname, u.port, u.path, parse_qs(u.query), urlencode({"q": "a b", "n": 2}), quote("ä/b c"), unquote("%C3%A4"), urljoin("https://h/a/b", "../c")]
