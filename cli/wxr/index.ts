import { audioUrlSchema, cutText, imageUrlSchema } from "#app/content/schemas.ts";
import { currentSite } from "#app/site.ts";
import { readText } from "#cli/import-json.ts";
import type { Source, SourceOptions } from "#cli/source.ts";
import { audioAttachment, audioKey } from "#cli/wxr/audio.ts";
import { itemLabel, mapWxrItem, sourceMetaKeys } from "#cli/wxr/items.ts";
import { languageOfLocale } from "#cli/wxr/languages.ts";
import { explicitSlugs } from "#cli/wxr/slugs.ts";
import type { WxrContext } from "#cli/wxr/types.ts";
import { fileEncoding, parseWxr } from "#cli/wxr/xml.ts";

// A WordPress export (WXR) as a Source of records. The parts, one file each:
// xml.ts reads the file into items and the channel; php-serialized.ts reads
// Polylang's term descriptions; languages.ts finds a post's language and
// translation group (categories, Polylang, WPML); time-zone.ts dates drafts
// in the site's zone; slugs.ts decodes and collects wp:post_name; audio.ts
// finds a post's audio; items.ts maps one item to a record. Paragraphs
// (wpautop) are app/content/wordpress-content.ts's, shared with the site.

/**
 * A WXR file. The first pass collects attachments (id → URL), so the second
 * resolves every featured image, wherever its attachment sits in the file.
 */
export function wxrSource(
  file: string,
  options: SourceOptions,
  timeZone: string = currentSite().timeZone,
  knownAttachments?: Map<string, string>,
): Source {
  const attachments = knownAttachments ?? new Map<string, string>();
  const thumbnails: { label: string; id: string }[] = [];
  const audioErrors: string[] = [];
  const metaKeys = sourceMetaKeys(options.sourceFields);
  let channelWarnings: string[] = [];
  // Given the attachments of an earlier read, every read resolves featured images.
  let pass = knownAttachments ? 1 : 0;
  let namedSlugs: Set<string> | undefined;
  return {
    format: "wxr",
    async *items(counter) {
      pass++;
      const context: WxrContext = {
        language: options.language,
        fileLanguage: null,
        attachments,
        timeZone,
        slugsSeen: new Set(),
        sourceFields: options.sourceFields,
      };
      const encoding = fileEncoding(file);
      namedSlugs ??= await explicitSlugs(file, encoding);
      context.namedSlugs = namedSlugs;
      for await (const event of parseWxr(readText(file, counter, encoding), { metaKeys })) {
        if ("channel" in event) {
          const { channel } = event;
          context.fileLanguage = languageOfLocale(channel.language);
          context.authors = channel.authors;
          context.translationGroups = channel.translationGroups;
          context.polylang = channel.polylang;
          if (pass === 1) channelWarnings = channel.warnings;
          continue;
        }
        const { item } = event;
        if (pass === 1) {
          if (item.postType === "attachment" && item.postId) attachments.set(item.postId, item.attachmentUrl);
          const audio = item.postType === "attachment" ? audioAttachment(item) : "";
          if (audio !== "" && item.postParent !== "" && item.postParent !== "0") {
            const checked = audioUrlSchema.safeParse(audio);
            if (!checked.success) {
              audioErrors.push(
                `${itemLabel(item)}: audio: ${checked.error.issues[0]?.message ?? "invalid"} (attachment of post ${cutText(item.postParent, 40)})`,
              );
            } else if (!attachments.has(audioKey(item.postParent))) {
              attachments.set(audioKey(item.postParent), audio);
            }
          }
          if (item.thumbnailId && item.postType !== "attachment") {
            thumbnails.push({ label: itemLabel(item), id: item.thumbnailId });
          }
        }
        yield mapWxrItem(item, context);
      }
    },
    attachments,
    afterFirstPass() {
      const errors: string[] = [...audioErrors];
      const warnings: string[] = [...channelWarnings];
      const imageUrl = imageUrlSchema;
      for (const { label, id } of thumbnails) {
        const url = attachments.get(id);
        if (url === undefined) {
          warnings.push(
            `${label}: featured image attachment ${cutText(id, 40)} is not in the file; the post gets no image`,
          );
          continue;
        }
        const result = imageUrl.safeParse(url);
        if (!result.success) {
          errors.push(
            `${label}: featureImageUrl: ${result.error.issues[0]?.message ?? "invalid"} (attachment ${cutText(id, 40)})`,
          );
        }
      }
      return { errors, warnings };
    },
  };
}
