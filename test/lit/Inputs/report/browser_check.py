"""Opens a kopt report in headless chromium: takes a screenshot and the DOM
after the page's script ran, and prints what a reader would see:

  screenshot: WIDTHxHEIGHT, N colours, M% not background
  overview rows: N
  plots: N trajectory, M roofline
  plot lines: N

Usage: browser_check.py CHROMIUM REPORT.html OUT_DIR [WIDTH,HEIGHT]
The PNG is decoded here with zlib alone (no imaging package)."""
import os
import re
import struct
import subprocess
import sys
import tempfile
import zlib

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars"]


def chromium(binary, args, url):
    with tempfile.TemporaryDirectory() as profile:
        return subprocess.run([binary] + FLAGS + ["--user-data-dir=" + profile] + args + [url],
                              capture_output=True, timeout=120)


def decode_png(data):
    """Width, height and rows of (r, g, b) pixels of an 8-bit RGB or RGBA PNG."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
    width, height, depth, colour = header[:4]
    if depth != 8 or colour not in (2, 6):
        raise ValueError("PNG of depth %d, colour type %d" % (depth, colour))
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            left = line[x - channels] if x >= channels else 0
            up = previous[x]
            corner = previous[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + left) & 255
            elif kind == 2:
                line[x] = (line[x] + up) & 255
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[x] = (line[x] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        rows.append([tuple(line[i:i + 3]) for i in range(0, stride, channels)])
        previous = line
    return width, height, rows


def main():
    binary, report, out = sys.argv[1:4]
    size = sys.argv[4] if len(sys.argv) > 4 else "1400,2000"
    os.makedirs(out, exist_ok=True)
    url = "file://" + os.path.abspath(report)
    shot = os.path.join(out, "report.png")
    run = chromium(binary, ["--screenshot=" + shot, "--window-size=" + size], url)
    if not os.path.exists(shot):
        sys.exit("chromium wrote no screenshot:\n" + run.stderr.decode(errors="replace"))
    width, height, rows = decode_png(open(shot, "rb").read())
    colours, background = {}, rows[0][0]
    for row in rows:
        for pixel in row:
            colours[pixel] = colours.get(pixel, 0) + 1
    painted = 100.0 * (width * height - colours.get(background, 0)) / (width * height)
    print("screenshot: %dx%d, %d colours, %.0f%% not background" % (width, height, len(colours),
                                                                  painted))
    dom = chromium(binary, ["--dump-dom"], url).stdout.decode(errors="replace")
    open(os.path.join(out, "dom.html"), "w").write(dom)
    print("overview rows: %d" % len(re.findall(r'<tr class="kernel-row"', dom)))
    print("plots: %d trajectory, %d roofline" % (len(re.findall(r'<svg class="plot trajectory"', dom)),
                                                len(re.findall(r'<svg class="plot roofline"', dom))))
    print("plot lines: %d" % len(re.findall(r"<polyline", dom)))


if __name__ == "__main__":
    main()
