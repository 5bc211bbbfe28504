"""Games from elsewhere: JCloisterZone saves (``jcz``) and CarcassonneLab links
(``carcassonnelab``), read into and written from meeple's classic game (docs/guide/interop.md)."""
