"""Diagnostics: the value, the catalogue of codes, and the report that collects them."""

from __future__ import annotations

from dmtool.diagnostics.catalogue import CodeInfo, catalogue, diagnose
from dmtool.diagnostics.model import Diagnostic, Location, Severity
from dmtool.diagnostics.report import Report

__all__ = ["CodeInfo", "Diagnostic", "Location", "Report", "Severity", "catalogue", "diagnose"]
