#!/usr/bin/python3
"""Headless Chromium (Selenium + chromedriver) signing in at a real authorization server.

    browser.py --server django|glewlwyd --url AUTHORIZATION_URL --user U --password P
               [--consent allow|deny|none] [--until PREFIX] [--cookies JAR] [--dom FILE]

Loads the authorization URL, fills the server's own login form, then answers its consent
page (allow or deny; 'none': stop once signed in, the session cookie is what the caller
wants). With --until, waits until the browser has followed the server's redirect to a URL
starting with PREFIX (the loopback receiver) and saves that page's DOM to --dom. With
--cookies, writes the browser's cookies as a Netscape cookie jar for curl.
Exit 0 when every step happened; 2 with a message on stderr naming the step that did not.
"""
import argparse
import sys
import tempfile

from selenium import webdriver
from selenium.common.exceptions import TimeoutException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import WebDriverWait

STEP_TIMEOUT = 30


def driver_for(profile, trusted_spki=None):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-dev-shm-usage", f"--user-data-dir={profile}",
                 "--disable-features=HttpsUpgrades,HttpsFirstBalancedModeAutoEnable"):
        options.add_argument(flag)
    if trusted_spki:
        # The suite's own TLS server: its key's SPKI hash is trusted, nothing else is.
        options.add_argument(f"--ignore-certificate-errors-spki-list={trusted_spki}")
    service = Service(executable_path="/usr/bin/chromedriver")
    return webdriver.Chrome(options=options, service=service)


def wait(driver, condition, step):
    try:
        return WebDriverWait(driver, STEP_TIMEOUT).until(condition)
    except TimeoutException:
        raise SystemExit(f"browser: step '{step}' did not happen within {STEP_TIMEOUT} s "
                         f"(at {driver.current_url!r}; page starts {driver.page_source[:400]!r})")


def django_sign_in(driver, args):
    wait(driver, ec.presence_of_element_located((By.ID, "username")), "django login form")
    driver.find_element(By.ID, "username").send_keys(args.user)
    driver.find_element(By.ID, "password").send_keys(args.password)
    driver.find_element(By.ID, "sign-in").click()
    if args.consent == "none":
        wait(driver, ec.presence_of_element_located((By.ID, "authorizationForm")), "django consent page")
        return
    wait(driver, ec.presence_of_element_located((By.ID, "authorizationForm")), "django consent page")
    if args.consent == "allow":
        driver.find_element(By.CSS_SELECTOR, "#authorizationForm input[name=allow]").click()
    else:  # the Cancel button: DOT answers error=access_denied
        driver.find_element(By.CSS_SELECTOR, "#authorizationForm input[type=submit]:not([name])").click()


def glewlwyd_sign_in(driver, args):
    # The glewlwyd login web app (login.html, a React page over glewlwyd's API): user name
    # and password, then its "Client access grant" page, where the user ticks the scopes
    # the client asked for and presses "Grant access" (the grant is stored per user and
    # client), then "Continue", which returns to /auth and on to the client. There is no
    # control that refuses: glewlwyd 2.7.5 never sends access_denied from /auth.
    wait(driver, ec.element_to_be_clickable((By.ID, "username")), "glewlwyd login form")
    driver.find_element(By.ID, "username").send_keys(args.user)
    driver.find_element(By.ID, "password").send_keys(args.password)
    driver.find_element(By.ID, "loginbut").click()
    wait(driver, ec.element_to_be_clickable((By.CSS_SELECTOR, "button.btn-success")), "glewlwyd grant page")
    if args.consent == "none":
        return
    if args.consent == "deny":
        raise SystemExit("browser: glewlwyd's login app has no control that denies a client")
    boxes = [box.get_attribute("id") for box in driver.find_elements(By.CSS_SELECTOR, "input[id^=grant-]")]
    for box_id in boxes:
        box = wait(driver, ec.element_to_be_clickable((By.ID, box_id)), "grant checkbox " + box_id)
        if not box.is_selected():
            box.click()
            wait(driver, lambda d: d.find_element(By.ID, box_id).is_selected(), "checkbox " + box_id + " ticked")
    if boxes:
        grant = [b for b in driver.find_elements(By.CSS_SELECTOR, "button.btn-primary") if "Grant" in b.text]
        if not grant:
            raise SystemExit("browser: no 'Grant access' button on glewlwyd's grant page")
        grant[0].click()
        # The page saves the grant with an API call and shows nothing certain afterwards:
        # ask the same API, from the page (its session cookie), until it says granted.
        client_id, scopes = glewlwyd_request(driver)
        wait(driver, lambda d: d.execute_script(GRANTED_SCRIPT, client_id, scopes), "grant saved by glewlwyd")
    go_on = wait(driver, ec.element_to_be_clickable((By.CSS_SELECTOR, "button.btn-success")), "glewlwyd Continue button")
    driver.execute_script("arguments[0].click()", go_on)


GRANTED_SCRIPT = """
const request = new XMLHttpRequest();
request.open("GET", "api/auth/grant/" + encodeURIComponent(arguments[0]) + "/" + encodeURIComponent(arguments[1]), false);
request.send();
if (request.status !== 200) { return false; }
return JSON.parse(request.responseText).scope.every((scope) => scope.granted);
"""


def glewlwyd_request(driver):
    """client_id and scope of the authorization request the login page is serving."""
    from urllib.parse import parse_qs, urlsplit
    query = parse_qs(urlsplit(driver.current_url).query)
    return query["client_id"][0], query["scope"][0]


def no_sign_in(driver, args):
    """--consent skip: the server answers without any page (prompt=none)."""


SERVERS = {"django": django_sign_in, "glewlwyd": glewlwyd_sign_in}


def write_cookie_jar(driver, path):
    with open(path, "w") as jar:
        jar.write("# Netscape HTTP Cookie File\n")
        for cookie in driver.get_cookies():
            domain = cookie["domain"]
            jar.write("\t".join([domain, "FALSE", cookie.get("path", "/"),
                                 "TRUE" if cookie.get("secure") else "FALSE",
                                 str(int(cookie.get("expiry", 0))), cookie["name"], cookie["value"]]) + "\n")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", choices=sorted(SERVERS), required=True)
    parser.add_argument("--url", required=True)
    parser.add_argument("--user", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--consent", choices=["allow", "deny", "none", "skip"], default="allow",
                        help="skip: no login form is expected (prompt=none answers at once)")
    parser.add_argument("--until")
    parser.add_argument("--cookies")
    parser.add_argument("--dom")
    parser.add_argument("--landed", help="write the URL the browser was redirected to (the raw callback)")
    parser.add_argument("--trust-spki", help="the base64 SHA-256 of the suite's TLS server key (its SPKI)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="interop-chromium-") as profile:
        driver = driver_for(profile, args.trust_spki)
        try:
            driver.set_page_load_timeout(STEP_TIMEOUT)
            driver.get(args.url)
            (no_sign_in if args.consent == "skip" else SERVERS[args.server])(driver, args)
            if args.until:
                wait(driver, lambda d: d.current_url.startswith(args.until), "redirect to " + args.until)
                wait(driver, lambda d: d.execute_script("return document.readyState") == "complete", "receiver page")
                if args.landed:
                    with open(args.landed, "w") as landed:
                        landed.write(driver.current_url + "\n")
                if args.dom:
                    with open(args.dom, "w") as dom:
                        dom.write(driver.page_source)
            if args.cookies:
                write_cookie_jar(driver, args.cookies)
        except WebDriverException as error:
            raise SystemExit(f"browser: {error.msg}")
        finally:
            driver.quit()


if __name__ == "__main__":
    main()
