"""``{% qr_address_warning %}``: on the pages that print QR codes, a notice when the codes
would hold the laptop's own address (``localhost``), which no phone or tablet can reach."""

from __future__ import annotations

from urllib.parse import urlsplit

from django import template

from tournament.kit.addresses import LOCAL_HOSTS, public_site_root

register = template.Library()


@register.inclusion_tag("printing/_qr_address_warning.html", takes_context=True)
def qr_address_warning(context) -> dict:
    request = context.get("request")
    if request is None:
        return {"address": None}
    address = public_site_root(request)
    return {"address": address if urlsplit(address).hostname in LOCAL_HOSTS else None}
