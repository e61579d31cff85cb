#!/usr/bin/python3
"""form_fields.py HTML_FILE FORM_ID: prints the form's hidden inputs as NAME=VALUE, NUL-separated.

What a browser would submit from the consent form, for curl (--data-urlencode each one)."""
import sys
from html.parser import HTMLParser


class Form(HTMLParser):
    def __init__(self, form_id):
        super().__init__()
        self.form_id, self.inside, self.fields = form_id, False, []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self.inside = attrs.get("id") == self.form_id
        elif tag == "input" and self.inside and attrs.get("type") == "hidden" and attrs.get("name"):
            self.fields.append(f"{attrs['name']}={attrs.get('value') or ''}")

    def handle_endtag(self, tag):
        if tag == "form":
            self.inside = False


form = Form(sys.argv[2])
with open(sys.argv[1], encoding="utf-8") as html:
    form.feed(html.read())
if not form.fields:
    sys.exit(f"form_fields: no hidden fields in form #{sys.argv[2]}")
sys.stdout.write("\0".join(form.fields) + "\0")
