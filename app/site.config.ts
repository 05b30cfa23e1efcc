// White-label identity: an operator edits this one file to make the site theirs.
export const siteConfig = {
  name: "Sukti",
  tagline: "Well-said words of the saints, in English, हिंदी and मराठी",
  teacherName: "the saints of India",
  logo: { src: "/images/logo.svg", width: 40, height: 40, alt: "Sukti" },
  about: {
    heading: "About",
    teaser:
      "Sukti gathers short sayings of the saints and poets of India: Kabir, Tulsidas, Rahim, Surdas and Mirabai in Hindi; Tukaram, Dnyaneshwar, Ramdas, Namdev and Janabai in Marathi; the Dhammapada, Rabindranath Tagore and Swami Vivekananda in English. Read a saying a day, search them in any script, and share them with the people you love.",
    readMoreUrl: "https://en.wikipedia.org/wiki/Bhakti_movement",
    readMoreLabel: "Read More",
  },
  // The demo points at each network's front page: put the site's own pages here.
  social: [
    { network: "Facebook", url: "https://www.facebook.com/" },
    { network: "X", url: "https://x.com/" },
    { network: "YouTube", url: "https://www.youtube.com/" },
  ],
  copyrightHolder: "Sukti",
  /** IANA time zone used for every displayed date (postDateTime). */
  timeZone: "Asia/Kolkata",
  defaultImage: { src: "/images/default-clipart.svg", width: 800, height: 800 },
} as const;

export type SiteConfig = typeof siteConfig;
