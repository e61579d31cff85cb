"""Settings of the django-oauth-toolkit server the interop suite runs (127.0.0.1 only).

Everything the suite relies on is set here explicitly: OIDC on, PKCE required with S256
only, RFC 9207 `iss` in every authorization response, a private-use scheme allowed as a
redirect URI. The database and the OIDC signing key live in INTEROP_WORK (a temp dir).
"""
import os

WORK = os.environ["INTEROP_WORK"]
ISSUER = os.environ["INTEROP_ISSUER"]  # e.g. http://127.0.0.1:PORT/o

SECRET_KEY = "interop-suite-only-not-a-secret"
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1"]
ROOT_URLCONF = "interop_urls"
USE_TZ = True
INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "oauth2_provider",
]
MIDDLEWARE = [
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
]
TEMPLATES = [{
    "BACKEND": "django.template.backends.django.DjangoTemplates",
    "DIRS": [os.path.join(os.path.dirname(__file__), "templates")],
    "APP_DIRS": True,
    "OPTIONS": {"context_processors": ["django.template.context_processors.request"]},
}]
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": os.path.join(WORK, "db.sqlite3")}}
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
LOGIN_URL = "/accounts/login/"
LOGGING = {"version": 1, "disable_existing_loggers": False}

with open(os.path.join(WORK, "oidc.key")) as key:
    OIDC_RSA_PRIVATE_KEY = key.read()

OAUTH2_PROVIDER = {
    "OIDC_ENABLED": True,
    "OIDC_ISS_ENDPOINT": ISSUER,
    "OIDC_RSA_PRIVATE_KEY": OIDC_RSA_PRIVATE_KEY,
    "PKCE_REQUIRED": True,
    "COMPLIANT_BCP_RFC9700_PKCE_METHOD": True,         # S256 only, never plain
    "COMPLIANT_BCP_RFC9700_AUTHZ_RESPONSE_ISS": True,  # RFC 9207 iss in the redirect
    "COMPLIANT_BCP_RFC9700_IMPLICIT_GRANT": True,
    "ALLOWED_REDIRECT_URI_SCHEMES": ["http", "https", "com.example.app"],
    "SCOPES": {"openid": "OpenID Connect", "profile": "Profile"},
    "AUTHORIZATION_CODE_EXPIRE_SECONDS": 120,
    # The device authorization grant (RFC 8628): its page, where the person types the user
    # code, and a short polling interval (the suite waits for it).
    "OAUTH_DEVICE_VERIFICATION_URI": ISSUER + "/device/",
    "DEVICE_FLOW_INTERVAL": 1,
}
