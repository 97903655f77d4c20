"""The desktop window (Qt). Talks to the service only through the bridge."""
