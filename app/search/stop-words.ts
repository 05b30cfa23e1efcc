// Words too common to narrow a search (decision 037): in a search of several
// words they do not count, unless they are all it holds ("the", "है").
// English, Hindi and Marathi, and Hindi's particles as people romanise them.
// Folded forms (fold.ts): lower case, no nukta.
const STOP_WORDS = new Set([
  // English
  ..."a an and are as at be but by for from has have he her his i in is it its of on or our she so that the their them they this to was we were what when which who will with you your".split(
    " ",
  ),
  // Hindi
  ..."का के की को से ने में मैं है हैं था थी थे और या पर भी ही तो यह वह ये वो एक कि जो न".split(" "),
  // Marathi
  ..."आणि व हे ते तो ती की ला ने चा ची चे त हा ही आहे आहेत होता".split(" "),
  // Hindi, romanised
  ..."ka ke ki ko se ne me mein hai hain tha thi the aur ya par bhi hi to yeh ye wo woh ek".split(" "),
]);

export function isStopWord(foldedWord: string): boolean {
  return STOP_WORDS.has(foldedWord);
}
