"""Reading a ranking's export (CSV, XLSX, ODS) as the cells a spreadsheet shows, so that a test
asks what the reader sees and not which bytes a compressed archive happens to hold."""

from __future__ import annotations

import csv
import io
import zipfile
from xml.etree import ElementTree

import openpyxl

_TEXT_P = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}p"


def cells(content: bytes, export_format: str) -> list[str]:
    """Every cell's text, row after row."""
    if export_format == "csv":
        return [cell for line in csv.reader(io.StringIO(content.decode("utf-8-sig")))
                for cell in line]
    if export_format == "xlsx":
        sheet = openpyxl.load_workbook(io.BytesIO(content)).active
        return [str(value) for row in sheet.iter_rows(values_only=True)
                for value in row if value is not None]
    if export_format == "ods":
        with zipfile.ZipFile(io.BytesIO(content)) as document:
            root = ElementTree.fromstring(document.read("content.xml"))
        return ["".join(element.itertext()) for element in root.iter(_TEXT_P)]
    raise ValueError(export_format)
