import { audioTypeOf } from "#app/content/audio.ts";
import type { WxrItem } from "#cli/wxr/types.ts";

/** The address when it is audio (by its declared type, else its extension), "" when not. */
export function audioEnclosure(url: string, type: string): string {
  const address = url.trim();
  if (address === "") return "";
  const declared = type.trim().toLowerCase();
  if (declared !== "") return declared.startsWith("audio/") ? address : "";
  return audioTypeOf(address) ? address : "";
}

/** An attachment's address when it is audio (wp:post_mime_type, else the address's extension). */
export function audioAttachment(item: WxrItem): string {
  return audioEnclosure(item.attachmentUrl, item.mimeType);
}

/**
 * Key of a post's first audio attachment in WxrContext.attachments (which
 * otherwise maps attachment ids, all digits, to their addresses).
 */
export const audioKey = (postId: string) => `audio:${postId}`;
