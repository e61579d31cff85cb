#!/usr/bin/python3
"""The person's side of the device flow (RFC 8628) at django-oauth-toolkit, in headless Chromium.

    device_page.py --url VERIFICATION_URI --code USER_CODE --user U --password P
                   [--decision accept|deny]

Opens the device page, signs in on the server's own login form, types the user code exactly
as the terminal showed it, presses "Verify", then "Accept" (or "Deny") on the confirmation
page, and waits for the page that says the grant's status. Exit 0 when every step happened;
otherwise a message on stderr naming the step that did not.
"""
import argparse
import tempfile

from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ec

from browser import STEP_TIMEOUT, driver_for, wait


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--code", required=True)
    parser.add_argument("--user", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--decision", choices=["accept", "deny"], default="accept")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as profile:
        driver = driver_for(profile)
        try:
            driver.set_page_load_timeout(STEP_TIMEOUT)
            driver.get(args.url)
            wait(driver, ec.presence_of_element_located((By.ID, "username")), "django login form")
            driver.find_element(By.ID, "username").send_keys(args.user)
            driver.find_element(By.ID, "password").send_keys(args.password)
            driver.find_element(By.ID, "sign-in").click()
            code = wait(driver, ec.presence_of_element_located((By.NAME, "user_code")), "device page's user code field")
            code.send_keys(args.code)
            driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
            button = f"form button[name=action][value={args.decision}]"
            wait(driver, ec.element_to_be_clickable((By.CSS_SELECTOR, button)), "confirmation page's " + args.decision)
            driver.find_element(By.CSS_SELECTOR, button).click()
            wait(driver, lambda d: "/device-grant-status/" in d.current_url, "device grant status page")
        except WebDriverException as error:
            raise SystemExit(f"device page: {error.msg}")
        finally:
            driver.quit()


if __name__ == "__main__":
    main()
