"""The LMSP service: no Qt import anywhere in this package."""
