"""Request handlers, one module per resource; the route table in ``routes.py`` lists them."""
