import { arMessages } from './ar-messages';
import { translatorOf } from './compile-catalog';

/**
 * Arabic's messages compiled: the dictionary and its compiler in one chunk, loaded with the language
 * (translate-message's loadMessageCatalog); alone, the small compiler was merged into the entry every page loads.
 */
export const arTranslator = translatorOf(arMessages);
