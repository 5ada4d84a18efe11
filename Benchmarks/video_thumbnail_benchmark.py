"""A video's thumbnail against the ffmpeg command that makes the same one.

Twelve clips as phones and cameras leave them (H.264 in MP4 and MOV,
HEVC in MOV, VP9 in WebM; 1080p at 30 frames a second, 20 seconds, with a
key frame every 2 seconds, the first second a fade from black) are made
by ffmpeg and imported into a new library. Then, on an empty thumbnail
cache:
- albums: `albums serve` (release) is asked for each clip's 512-pixel
  thumbnail, one request after the other, each timed from request to
  last byte: the clip's bytes checked against its SHA-256 (read whole, as
  every original is before a thumbnail is trusted), a frame past the fade
  found and decoded by FFmpeg's libraries, scaled, turned, encoded;
- ffmpeg: `ffmpeg -ss 2 -i CLIP -frames:v 1 -vf scale=512:-2 OUT.jpg` for
  the same clip, a process per thumbnail as a script would run it.
Each is run three times (a new cache and server each time for albums);
the median of each clip's three times is summed.

Run by `scripts/benchmark video-thumbnails` (ALBUMS_BINARY: the release albums).
"""

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ALBUMS = os.environ["ALBUMS_BINARY"]
SIDE = 512
RUNS = 3
CLIPS = [(f"h264-{n}.mp4", ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p"]) for n in range(4)] \
    + [(f"h264-{n}.mov", ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p"]) for n in range(3)] \
    + [(f"hevc-{n}.mov", ["-c:v", "libx265", "-preset", "ultrafast", "-tag:v", "hvc1", "-x265-params", "log-level=none"]) for n in range(3)] \
    + [(f"vp9-{n}.webm", ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "4M"]) for n in range(2)]


def make_clips(folder):
    cache = Path(os.environ.get("ALBUMS_VIDEO_BENCHMARK_CLIPS", Path(__file__).resolve().parents[1] / ".build/video-benchmark-clips"))
    cache.mkdir(parents=True, exist_ok=True)
    for number, (name, codec) in enumerate(CLIPS):
        target = cache / name
        if not target.exists():
            # Each clip its own pictures (a hue apart), so none is the same bytes as another.
            source = f"testsrc2=duration=20:size=1920x1080:rate=30,fade=in:0:30,hue=h={number * 25}"
            subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", source, *codec, "-g", "60", str(target) + ".part" + Path(name).suffix],
                           check=True)
            os.rename(str(target) + ".part" + Path(name).suffix, target)
        shutil.copy(target, folder / name)
    return [folder / name for name, _ in CLIPS]


def albums_times(folder, clips):
    """Each clip's thumbnail time through albums serve, on an empty cache."""
    library = folder / "bench.albums"
    if library.exists():
        library.unlink()
    subprocess.run([ALBUMS, "--library", str(library), "init"], check=True, capture_output=True)
    subprocess.run([ALBUMS, "--library", str(library), "album", "create", "Clips"], check=True, capture_output=True)
    subprocess.run([ALBUMS, "--library", str(library), "import", *map(str, clips), "--to", "Clips"], check=True, capture_output=True)
    listing = json.loads(subprocess.run([ALBUMS, "--library", str(library), "--json", "list", "Clips"], check=True, capture_output=True).stdout)
    ids = {Path(item["file"]).name: item["photo_id"] for item in listing["items"]}
    cache = Path(tempfile.mkdtemp(prefix="albums-video-cache-", dir=folder))
    server = subprocess.Popen([ALBUMS, "--library", str(library), "--json", "serve", "--listen", "127.0.0.1:0"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                              env={**os.environ, "XDG_CACHE_HOME": str(cache)})
    try:
        url = json.loads(server.stdout.readline())["url"]
        base, token = url.split("/?token=")
        times = {}
        for clip in clips:
            request = urllib.request.Request(f"{base}/api/photos/{ids[clip.name]}/thumbnail?size={SIDE}", headers={"Authorization": f"Bearer {token}"})
            start = time.perf_counter()
            with urllib.request.urlopen(request) as response:
                body = response.read()
            times[clip.name] = time.perf_counter() - start
            assert body[:2] == b"\xff\xd8", clip.name
        return times
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(cache, ignore_errors=True)


def ffmpeg_times(folder, clips):
    times = {}
    for clip in clips:
        out = folder / (clip.name + ".jpg")
        start = time.perf_counter()
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-ss", "2", "-i", str(clip), "-frames:v", "1", "-vf", f"scale={SIDE}:-2", str(out)], check=True)
        times[clip.name] = time.perf_counter() - start
    return times


def main():
    folder = Path(tempfile.mkdtemp(prefix="albums-video-benchmark-"))
    try:
        clips = make_clips(folder)
        runs = {"albums": [], "ffmpeg": []}
        for _ in range(RUNS):
            runs["albums"].append(albums_times(folder, clips))
            runs["ffmpeg"].append(ffmpeg_times(folder, clips))
        print(f"A video's {SIDE}-pixel thumbnail: {len(clips)} clips (1080p30, 20 s: H.264 MP4 and MOV, HEVC MOV, VP9 WebM),"
              f" median of {RUNS} runs per clip")
        print()
        print("| clip | albums serve | ffmpeg -ss 2 -frames:v 1 | ratio |")
        print("| --- | ---: | ---: | ---: |")
        totals = {"albums": 0.0, "ffmpeg": 0.0}
        for clip in clips:
            medians = {kind: statistics.median(run[clip.name] for run in runs[kind]) for kind in runs}
            for kind in runs:
                totals[kind] += medians[kind]
            print(f"| {clip.name} ({clip.stat().st_size / 1e6:.1f} MB) | {medians['albums'] * 1000:.0f} ms | {medians['ffmpeg'] * 1000:.0f} ms |"
                  f" {medians['albums'] / medians['ffmpeg']:.2f}× |")
        print(f"| **all {len(clips)}** | **{totals['albums'] * 1000:.0f} ms** | **{totals['ffmpeg'] * 1000:.0f} ms** |"
              f" **{totals['albums'] / totals['ffmpeg']:.2f}×** |")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
