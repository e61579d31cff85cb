#!/usr/bin/python3
"""The loopback receiver's pages in a real headless Chromium (Selenium + chromedriver).

    pages_check.py HELPER WORKDIR

Runs the real `HELPER loopback` for each page (success, provider failure, a callback of
another login, a refused callback of this login, the Host 403, a 404), drives Chromium to
it, saves a light and a dark screenshot of each under WORKDIR (sizes printed), and fails
on an unstyled page: the computed font is not the default serif, the body's max-width is
applied, the background is the stylesheet's own in light and in dark mode (emulated
`prefers-color-scheme`, read from the computed style and from the screenshot's pixels).
It also fails when a page loads anything beyond itself (the resource timing API and the
DevTools network events of the load) or when Chromium reports a CSP violation.
Prints "ok   - …" / "FAIL - …" lines and "N passed, M failed"; exits 1 on a failure.
"""
import json
import os
import struct
import subprocess
import sys
import tempfile
import time
import urllib.parse
import zlib

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

HELPER, WORK = sys.argv[1], sys.argv[2]
passed = failed = 0
processes = []

# The stylesheet's colours (LoopbackPageContent+HTML.swift): the page background, light and dark.
LIGHT_BG = (0xF3, 0xF4, 0xF6)
DARK_BG = (0x0D, 0x11, 0x17)


def check(description, condition, detail=""):
    global passed, failed
    if condition:
        passed += 1
        print(f"ok   - {description}")
    else:
        failed += 1
        print(f"FAIL - {description}" + (f" ({detail})" if detail else ""), file=sys.stderr)
        print(f"FAIL - {description}")


def start_loopback(*arguments):
    """Runs `HELPER loopback ARGUMENTS…`; returns the process and its redirect URI."""
    err = open(os.path.join(WORK, f"loopback-{len(processes)}.err"), "w")
    process = subprocess.Popen([HELPER, "loopback", *arguments], stdout=subprocess.PIPE, stderr=err, text=True)
    processes.append(process)
    first = process.stdout.readline()
    if not first.startswith('{"redirect_uri":'):
        raise RuntimeError(f"loopback {' '.join(arguments)} did not start (exit {process.wait()})")
    return process, json.loads(first)["redirect_uri"]


def finish(process, seconds=15):
    try:
        return process.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        process.terminate()
        return 124


def driver_for(profile):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-dev-shm-usage",
                 f"--user-data-dir={profile}", "--window-size=1000,800", "--hide-scrollbars",
                 "--disable-features=HttpsUpgrades,HttpsFirstBalancedModeAutoEnable"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    return webdriver.Chrome(options=options, service=Service(executable_path="/usr/bin/chromedriver"))


def png_pixels(path):
    """(width, height, rows of (r, g, b)) of an 8-bit RGB or RGBA PNG (what Chromium saves)."""
    with open(path, "rb") as file:
        data = file.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    offset, idat = 8, b""
    while offset < len(data):
        length, kind = struct.unpack(">I4s", data[offset:offset + 8])
        body = data[offset + 8:offset + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6), f"PNG depth {depth} colour type {colour}"
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        offset += 12 + length
    raw, stride, rows, previous = zlib.decompress(idat), width * channels, [], bytearray(width * channels)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 0xFF
        rows.append([tuple(line[x * channels:x * channels + 3]) for x in range(width)])
        previous = line
    return width, height, rows


def near(colour, expected, tolerance=3):
    return all(abs(a - b) <= tolerance for a, b in zip(colour, expected))


def rgb(css):
    """'rgb(1, 2, 3)' or 'rgba(1, 2, 3, 0.5)' → (1, 2, 3, alpha)."""
    inside = css[css.index("(") + 1:css.index(")")]
    parts = [float(p) for p in inside.replace("/", ",").split(",")]
    return tuple(int(p) for p in parts[:3]) + ((parts[3] if len(parts) > 3 else 1.0),)


def set_scheme(driver, scheme):
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"features": [{"name": "prefers-color-scheme", "value": scheme}]})


def visit(driver, name, url, expect_heading, expect_texts=(), forbidden=(), redirects_through=()):
    """Loads URL, checks what the page says, its styles in light and dark, its screenshots
    and that it loaded nothing beyond itself. `redirects_through`: the origins whose
    navigations (the start link's redirects through the provider) led to the page."""
    driver.get_log("performance")  # drop the events of earlier pages
    driver.get_log("browser")
    set_scheme(driver, "light")
    driver.get(url)
    heading = driver.find_element(By.TAG_NAME, "h1").text
    check(f"{name}: the heading says {expect_heading!r}", heading == expect_heading, f"got {heading!r}")
    text = driver.find_element(By.TAG_NAME, "body").text
    for expected in expect_texts:
        check(f"{name}: the page says {expected!r}", expected in text, f"page text {text!r}")
    source = driver.page_source
    for value in forbidden:
        check(f"{name}: the page does not show {value!r}", value not in source)

    # Styled: the system font stack, the bounded column, the stylesheet's background.
    style = driver.execute_script(
        "const s = getComputedStyle(document.body);"
        "return {font: s.fontFamily, maxWidth: s.maxWidth, bg: s.backgroundColor, color: s.color,"
        " sheets: document.styleSheets.length, rules: document.styleSheets.length ? document.styleSheets[0].cssRules.length : 0};")
    families = [f.strip().strip('"').lower() for f in style["font"].split(",")]
    check(f"{name}: the font is the system stack, not the default serif",
          families[0] not in ("serif", "times", "times new roman", "") and "sans-serif" in families, style["font"])
    check(f"{name}: the body's max-width is applied", style["maxWidth"] == "576px", style["maxWidth"])
    check(f"{name}: the stylesheet is applied (one sheet, its rules readable)", style["sheets"] == 1 and style["rules"] > 5,
          f"{style['sheets']} sheets, {style['rules']} rules")
    check(f"{name}: light background is the stylesheet's", near(rgb(style["bg"])[:3], LIGHT_BG) and rgb(style["bg"])[3] == 1,
          style["bg"])
    light_png = os.path.join(WORK, f"{name}-light.png")
    driver.save_screenshot(light_png)

    set_scheme(driver, "dark")
    dark = driver.execute_script("const s = getComputedStyle(document.body); return [s.backgroundColor, s.color];")
    check(f"{name}: dark mode: a dark background of its own", near(rgb(dark[0])[:3], DARK_BG) and rgb(dark[0])[3] == 1, dark[0])
    check(f"{name}: dark mode: light text", sum(rgb(dark[1])[:3]) > 600, dark[1])
    dark_png = os.path.join(WORK, f"{name}-dark.png")
    driver.save_screenshot(dark_png)
    set_scheme(driver, "light")

    # A point inside the card, away from its text: the middle of its left padding.
    card_x, card_y = driver.execute_script(
        "const r = (document.querySelector('main') || document.body).getBoundingClientRect();"
        "return [Math.round(r.left + 12), Math.round(r.top + r.height / 2)];")
    for scheme, path, expected in (("light", light_png, LIGHT_BG), ("dark", dark_png, DARK_BG)):
        width, height, rows = png_pixels(path)
        print(f"     screenshot {path}: {width}x{height}, {os.path.getsize(path)} bytes")
        corner, centre = rows[2][2], rows[card_y][card_x]
        check(f"{name}: the {scheme} screenshot's background is the stylesheet's", near(corner, expected), f"corner pixel {corner}")
        check(f"{name}: the {scheme} screenshot shows a card, not a blank page", not near(centre, expected),
              f"centre pixel {centre}")

    # Nothing loaded but the page: no resource timing entry, no network request but the
    # navigation (and the redirects that led to it), no CSP violation.
    resources = driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name);")
    check(f"{name}: the resource timing API lists no resource", resources == [], resources)
    requested = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") == "Network.requestWillBeSent":
            params = message["params"]
            requested.append((params.get("type"), params["request"]["url"]))
    # Everything from the page's own navigation on (the browser's new-tab page before it is not ours).
    ours = [i for i, (kind, u) in enumerate(requested) if kind == "Document" and u == url]
    since = requested[ours[-1] + 1:] if ours else requested
    foreign = [(kind, u) for kind, u in since
               if not u.startswith("data:") and not (kind == "Document" and u.startswith(tuple(redirects_through)))]
    check(f"{name}: DevTools saw the page's request and none beyond it", bool(ours) and not foreign,
          f"requests since the page's: {since}" if ours else f"the page's own request is missing from {requested}")
    violations = [e["message"] for e in driver.get_log("browser") if "Content Security Policy" in e["message"]]
    check(f"{name}: no CSP violation reported", violations == [], violations)


def success(driver):
    """The success page, with a hostile app name (shown as text)."""
    state = "pages-state-" + os.urandom(8).hex()
    name = "Pages <e2e> & \"Co\""
    process, redirect = start_loopback("--state", state, "--timeout", "60", "--app-name", name)
    visit(driver, "success", f"{redirect}?code=pages-code-1&state={state}", "Signed in",
          ["received the sign-in response", "You can close this tab and return to the terminal."],
          forbidden=[state, "pages-code-1"])
    label = driver.find_element(By.CSS_SELECTOR, ".app").text
    check("success: the app name is shown as text, escaped", label == name, repr(label))
    check("success: the app name made no element", driver.find_elements(By.TAG_NAME, "e2e") == [])
    check("success: the title names the app", driver.title == f"Signed in · {name}", driver.title)
    check("success: loopback exits 0", finish(process) == 0)


def failure(driver):
    """The failure page: the provider's error in words, its code, its description."""
    state = "pages-state-" + os.urandom(8).hex()
    process, redirect = start_loopback("--state", state, "--timeout", "60")
    description = urllib.parse.quote_plus("The user clicked <Cancel>")
    visit(driver, "failure", f"{redirect}?error=access_denied&error_description={description}&state={state}",
          "Sign-in not completed",
          ["You declined the request", "Error code: access_denied", "The provider said:", "The user clicked <Cancel>",
           "return to the terminal"], forbidden=[state])
    check("failure: the code is set apart as code", driver.find_element(By.TAG_NAME, "code").text == "access_denied")
    check("failure: loopback exits 1", finish(process) == 1)


def rejected(driver):
    """A callback of this login that is refused (wrong iss): the reason code, not the value."""
    state = "pages-state-" + os.urandom(8).hex()
    process, redirect = start_loopback("--state", state, "--timeout", "60", "--issuer", "https://issuer.example")
    evil = urllib.parse.quote("https://evil.example", safe="")
    visit(driver, "rejected", f"{redirect}?code=pages-code-2&state={state}&iss={evil}", "Sign-in response refused",
          ["Reason: issuer_mismatch", "start the sign-in again"], forbidden=[state, "pages-code-2", "evil.example"])
    check("rejected: loopback exits 65", finish(process) == 65)


def refusals(driver):
    """A callback of another login: refused with its reason, the wait goes on. Then the
    Host 403 (localhost on a 127.0.0.1 receiver) and a 404 on the same receiver."""
    state = "pages-state-" + os.urandom(8).hex()
    process, redirect = start_loopback("--state", state, "--timeout", "60")
    visit(driver, "refusal", f"{redirect}?code=pages-code-3&state=pages-other-login-state", "Request not accepted",
          ["Reason: state_mismatch", "still waiting"], forbidden=["pages-other-login-state", "pages-code-3", state])
    port = urllib.parse.urlsplit(redirect).port
    visit(driver, "wrong-host", f"http://localhost:{port}/callback", "Wrong address",
          [f"127.0.0.1:{port}", "--host localhost"])
    visit(driver, "not-found", f"http://127.0.0.1:{port}/nothing-here", "Not found", ["Nothing is served at this address"])
    check("refusal: the wait goes on", process.poll() is None)
    process.terminate()
    finish(process)


def start_provider():
    """The small local provider (pages_op.py); returns its base URL."""
    process = subprocess.Popen([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "pages_op.py")],
                               stdout=subprocess.PIPE, text=True)
    processes.append(process)
    return f"http://127.0.0.1:{int(process.stdout.readline())}"


def start_login(provider, mode):
    """Runs `HELPER login` with a token step against the provider's MODE; its "browser"
    writes the start URL into a FIFO this reads (blocking until it does), and Chromium then
    follows it. Returns the process, the start URL and the path of its stdout."""
    opened = os.path.join(WORK, f"opened-{mode}")
    os.mkfifo(opened)
    browser = os.path.join(WORK, f"browser-{mode}")
    with open(browser, "w") as file:
        file.write(f'#!/bin/sh\nprintf "%s" "$1" > "{opened}"\n')
    os.chmod(browser, 0o755)
    out_path, err_path = os.path.join(WORK, f"login-{mode}.out"), os.path.join(WORK, f"login-{mode}.err")
    process = subprocess.Popen(
        [HELPER, "login", "--endpoint", f"{provider}/{mode}/authorize", "--token-endpoint", f"{provider}/{mode}/token",
         "--client-id", "pages-app", "--scope", "read", "--allow-http-loopback", "--timeout", "60"],
        stdout=open(out_path, "w"), stderr=open(err_path, "w"), env={**os.environ, "BROWSER": browser})
    processes.append(process)
    with open(opened) as file:
        return process, file.read(), out_path


def held_pages(driver):
    """login's page waits for the token step: "Signed in" only once the tokens came, the
    failure in words when the token endpoint refuses (invalid_client), and "finishing in
    the terminal" when the token step outlasts the hold; the terminal agrees each time."""
    provider = start_provider()
    for mode, heading, texts, exit_code, printed in (
            ("good", "Signed in", ["You can close this tab and return to the terminal."], 0, '"access_token":"AT-pages-good"'),
            ("client", "Sign-in failed", ["could not finish the sign-in", "The token endpoint refused the code: invalid_client",
                                          "return to the terminal: it says what to do next"], 1, '"error":"invalid_client"'),
            ("slow", "Finishing the sign-in", ["still finishing the sign-in", "the terminal says how the sign-in ends"], 0,
             '"access_token":"AT-pages-slow"')):
        process, start, out_path = start_login(provider, mode)
        port = urllib.parse.urlsplit(start).port
        visit(driver, f"held-{mode}", start, heading, texts, forbidden=["AT-pages", "code_verifier"],
              redirects_through=(provider, f"http://127.0.0.1:{port}/"))
        check(f"held-{mode}: login exits {exit_code}", finish(process, 30) == exit_code)
        with open(out_path) as file:
            out = file.read()
        check(f"held-{mode}: the terminal's JSON agrees with the page", printed in out, out)


def main():
    profile = tempfile.mkdtemp(dir=WORK, prefix="profile.")
    driver = driver_for(profile)
    try:
        for scenario in (success, failure, rejected, refusals, held_pages):
            try:
                scenario(driver)
            except Exception as error:  # a step that could not run is a failure, and the next one still runs
                check(f"{scenario.__name__}: the scenario ran to its end", False, f"{type(error).__name__}: {error}")
    finally:
        driver.quit()
        for process in processes:
            if process.poll() is None:
                process.terminate()
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or passed == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
