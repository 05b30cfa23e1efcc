// A post's recording (decision 052): its media type by the
// address's extension, for the feed's <enclosure type> and the WordPress
// importer's "is this attachment audio?".

const AUDIO_TYPES: Record<string, string> = {
  mp3: "audio/mpeg",
  m4a: "audio/mp4",
  aac: "audio/aac",
  ogg: "audio/ogg",
  oga: "audio/ogg",
  opus: "audio/ogg",
  wav: "audio/wav",
  flac: "audio/flac",
  weba: "audio/webm",
};

/** The audio media type of an address by its extension (query and fragment ignored); null when not a known audio file. */
export function audioTypeOf(url: string): string | null {
  const path = url.replace(/[?#].*$/s, "");
  const extension = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase();
  return extension ? (AUDIO_TYPES[extension] ?? null) : null;
}
