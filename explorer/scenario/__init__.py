"""Scenario files: errors, fields read strictly, the hardened loader, provenance, reports and share links."""
