// The demo's identity: the default of every key the SITE_CONFIG file leaves
// out (app/site-config.server.ts; examples/site.example.toml documents them).
// An operator writes their own in that file, read at start and on SIGHUP: no
// rebuild (decision 055). Server code reads the running identity with
// currentSite() (app/site.ts), pages with useSite() from the root loader.
import type { SiteConfig } from "#app/site-config.server.ts";

export const demoSite: SiteConfig = {
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
    // The box on the home in Hindi and Marathi (decision 067).
    hindi: {
      heading: "परिचय",
      teaser:
        "सूक्ति भारत के संतों और कवियों के छोटे-छोटे वचनों का संग्रह है: हिंदी में कबीर, तुलसीदास, रहीम, सूरदास और मीराबाई; मराठी में तुकाराम, ज्ञानेश्वर, रामदास, नामदेव और जनाबाई; अंग्रेज़ी में धम्मपद, रवीन्द्रनाथ ठाकुर और स्वामी विवेकानंद। रोज़ एक वचन पढ़ें, किसी भी लिपि में खोजें, और अपने प्रियजनों के साथ साझा करें।",
      readMoreLabel: "और पढ़ें",
    },
    marathi: {
      heading: "परिचय",
      teaser:
        "सूक्ती हा भारतातील संत आणि कवींच्या छोट्या वचनांचा संग्रह आहे: हिंदीत कबीर, तुलसीदास, रहीम, सूरदास आणि मीराबाई; मराठीत तुकाराम, ज्ञानेश्वर, रामदास, नामदेव आणि जनाबाई; इंग्रजीत धम्मपद, रवींद्रनाथ टागोर आणि स्वामी विवेकानंद. रोज एक वचन वाचा, कोणत्याही लिपीत शोधा, आणि आपल्या प्रियजनांना पाठवा.",
      readMoreLabel: "अधिक वाचा",
    },
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
  // The stylesheet's own colours stay the build's (app/styles/app.css).
  colours: { theme: "#7a2e0e", themeDark: "#1a1410", background: "#fffaf2" },
};
