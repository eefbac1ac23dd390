# expect: ok
# value: ["&lt;a href=&#x27;x&#x27;&gt;&amp;&lt;/a&gt;", "<p> é β"]
# html.escape and unescape.
import html
result = [html.escape("<a href='x'>&</a>"), html.unescape("&lt;p&gt; &eacute; &#x3b2;")]
