"""Headless Chromium for the page's tests and its scrolling benchmark."""

import shutil

from selenium import webdriver
from selenium.webdriver.chrome.service import Service


def browser():
    """A headless Chromium (Debian's chromium and chromedriver) with a 1400×900 window."""
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,900"):
        options.add_argument(argument)
    # The page's console, for a failing test to show what the page said.
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    return webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
