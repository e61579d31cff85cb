#!/usr/bin/env python3
"""Copies one docs/*.md page into a DocC catalog as an article, at build time.

Usage: article.py SOURCE.md DESTINATION.md

docs/ stays the one source of the prose; only links change: a link to another page of
docs/ that the catalog also has becomes a DocC link (<doc:page>), any other relative link
points at the repository file, so nothing dangles in the rendered site.
"""
import os
import re
import sys

source, destination = sys.argv[1], sys.argv[2]
catalog = os.path.dirname(destination)
text = open(source, encoding="utf-8").read()


def relink(match):
    label, target = match.group(1), match.group(2)
    if re.match(r"^[a-z]+:", target) or target.startswith("#"):
        return match.group(0)
    page, _, _ = target.partition("#")
    if page.endswith(".md") and "/" not in page and os.path.exists(os.path.join(catalog, page)):
        return f"<doc:{page[:-3]}>"
    # Some other file of the repository: name it, as code, since the site does not hold it.
    return f"{label} (`{os.path.normpath(os.path.join('docs', target))}` in the repository)"


text = re.sub(r"\[([^\]]+)\]\(([^)\s]+)\)", relink, text)
open(destination, "w", encoding="utf-8").write(text)
