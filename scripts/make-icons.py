"""Draws the Sargable app icon (an index 'key' over bars) as PNGs at the sizes builders need. Pure stdlib."""
import struct
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SIZES = [16, 24, 32, 48, 64, 128, 256, 512]


def pixel(x: float, y: float) -> tuple[int, int, int, int]:
    # Coordinates in 0..1. Rounded square background.
    r = 0.18
    cx, cy = min(max(x, r), 1 - r), min(max(y, r), 1 - r)
    if (x - cx) ** 2 + (y - cy) ** 2 > r * r:
        return (0, 0, 0, 0)
    bg = (23, 37, 84, 255)
    # Five bars: a B-tree leaf level, one highlighted (the row an index seeks to).
    for i, height in enumerate([0.35, 0.55, 0.75, 0.5, 0.3]):
        left = 0.16 + i * 0.14
        if left <= x <= left + 0.1 and 0.82 - height <= y <= 0.82:
            return (250, 204, 21, 255) if i == 2 else (96, 165, 250, 255)
    return bg


def png(size: int) -> bytes:
    rows = []
    for j in range(size):
        row = bytearray([0])
        for i in range(size):
            # 2x2 supersampling for smooth edges
            samples = [pixel((i + dx) / size, (j + dy) / size) for dx in (0.25, 0.75) for dy in (0.25, 0.75)]
            row.extend(sum(s[k] for s in samples) // 4 for k in range(4))
        rows.append(bytes(row))
    raw = b''.join(rows)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack('>IIBBBBB', size, size, 8, 6, 0, 0, 0)
    return b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', header) + chunk(b'IDAT', zlib.compress(raw, 9)) + chunk(b'IEND', b'')


for size in SIZES:
    (ROOT / 'assets' / 'icons' / f'{size}x{size}.png').write_bytes(png(size))
(ROOT / 'assets' / 'icon.png').write_bytes(png(512))
