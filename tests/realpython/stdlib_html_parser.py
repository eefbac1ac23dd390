# expect: ok
# value: [["/x", "/y"], ["X", "and", "Y & Z"]]
# html.parser collects links and text.
from html.parser import HTMLParser
class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.text = [], []
    def handle_starttag(self, tag, attrs):
        if tag == "a":
            self.links.append(dict(attrs).get("href"))
    def handle_data(self, data):
        if data.strip():
            self.text.append(data.strip())
p = Links()
p.feed("<html><body><a href='/x'>X</a> and <a href='/y'>Y &amp; Z</a></body></html>")
result = [p.links, p.text]
