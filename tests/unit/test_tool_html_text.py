"""HTML to readable text for WebFetch."""

from __future__ import annotations

from agent_core.tools.html_text import html_to_text


def test_structure_is_kept_and_noise_dropped() -> None:
    html = """<html><head><title>Doc</title><script>var x = "<p>no</p>";</script></head><body>
    <nav><ul><li><a href="/">Home</a></li></ul></nav>
    <h2>Install</h2>
    <p>Run <code>pip install mew</code> then read
       <a href="guide.html">the guide</a>.</p>
    <ol><li>first</li><li>second<ul><li>inner</li></ul></li></ol>
    <pre>for x in y:
    print(x)</pre>
    <table><tr><th>k</th><th>v</th></tr><tr><td>a</td><td>1</td></tr></table>
    <p>5 &lt; 6 &amp; <a href="#top">top</a> <a href="javascript:void(0)">js</a></p>
    <footer><a href="https://ex.org/">https://ex.org/</a></footer>
    </body></html>"""
    title, text = html_to_text(html, "https://site.test/docs/index.html")
    assert title == "Doc"
    assert text == (
        "## Install\n\n"
        "Run `pip install mew` then read the guide (https://site.test/docs/guide.html).\n\n"
        "1. first\n2. second\n\n  - inner\n\n"
        "```\nfor x in y:\n    print(x)\n```\n\n"
        "| k | v\n\n| a | 1\n\n"
        "5 < 6 & top js\n\n"
        "https://ex.org/"
    )


def test_unclosed_tags_and_plain_fragments() -> None:
    title, text = html_to_text("<p>one<p>two <b>bold</b><br>three")
    assert title == ""
    assert text == "one\n\ntwo bold\nthree"
