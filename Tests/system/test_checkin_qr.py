"""The check-in QR code, module by module, against an independent encoder (the Python `qrcode`
package) given the same text, level M and the mask the server chose (read back from the code's
own format bits): short links (versions 2–4) and a long club address (versions 7 and up, which
carry version information)."""
import re

import qrcode
import qrcode.util


def matrix_of(svg):
    side = int(re.search(r'viewBox="0 0 (\d+) \1"', svg).group(1))
    size = side - 8
    modules = [[False] * size for _ in range(size)]
    for x, y, width in re.findall(r"M(\d+) (\d+)h(\d+)v1h-\d+z", svg):
        for dx in range(int(width)):
            modules[int(y) - 4][int(x) - 4 + dx] = True
    return modules


def mask_of(modules):
    """The mask the format bits name (level M expected)."""
    spots = [(8, 0), (8, 1), (8, 2), (8, 3), (8, 4), (8, 5), (8, 7), (8, 8), (7, 8), (5, 8), (4, 8), (3, 8), (2, 8), (1, 8), (0, 8)]
    word = sum(1 << index for index, (x, y) in enumerate(spots) if modules[y][x]) ^ 0x5412
    level, mask = word >> 13, (word >> 10) & 7
    assert level == 0, "level M"
    return mask


def reference(text, mask):
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=0, mask_pattern=mask)
    code.add_data(qrcode.util.QRData(text.encode(), mode=qrcode.util.MODE_8BIT_BYTE))
    code.make(fit=True)
    return [[bool(cell) for cell in row] for row in code.get_matrix()], code.version


def check_nights(server, count):
    season = server.api("POST", "/api/v1/seasons", {"name": "QR league", "divisions": ["MPO"]})
    versions, masks = set(), set()
    for night in range(count):
        event = server.api("POST", "/api/v1/events", {"name": f"Night {night}", "divisions": ["MPO"], "seasonID": season["id"]})
        status, headers, svg = server.exchange("GET", f"/events/{event['id']}/checkin.svg")
        assert status == 200 and headers["Content-Type"] == "image/svg+xml"
        ours = matrix_of(svg)
        mask = mask_of(ours)
        text = server.public_url + event["checkInLink"]
        theirs, version = reference(text, mask)
        assert len(ours) == len(theirs), f"{text}: size {len(ours)}, the reference {len(theirs)}"
        differ = [(x, y) for y in range(len(ours)) for x in range(len(ours)) if ours[y][x] != theirs[y][x]]
        assert not differ, f"{text} (version {version}, mask {mask}): {len(differ)} modules differ, first {differ[:5]}"
        versions.add(version)
        masks.add(mask)
    return versions, masks


def test_the_check_in_code_matches_an_independent_encoder(servers):
    short = servers.server("qr-short", extra=["--public-url", "http://10.0.0.7:8080"], handle="coach")
    short.public_url = "http://10.0.0.7:8080"
    short.start()
    long_address = "https://" + ".".join(f"league-night-{index}" for index in range(6)) + ".example.org"
    long = servers.server("qr-long", extra=["--public-url", long_address], handle="coach")
    long.public_url = long_address
    long.start()
    versions, masks = check_nights(short, 8)
    more_versions, more_masks = check_nights(long, 8)
    assert max(versions) < 7 <= min(more_versions), f"codes with and without version information: {versions}, {more_versions}"
    # Which masks the encoder picks depends on the event ids (random): each run compares
    # whichever it chose, module by module; over runs, all of them.
    print(f"masks compared: {sorted(masks | more_masks)}")
