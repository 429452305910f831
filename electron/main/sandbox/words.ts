// Word lists the generated catalog draws from, so titles and names look like a real
// collection (and searches for ordinary words find something).

export const ADJECTIVES = [
  'Silent', 'Hidden', 'Lost', 'Golden', 'Broken', 'Secret', 'Distant', 'Wild', 'Quiet', 'Burning',
  'Frozen', 'Little', 'Last', 'Crimson', 'Midnight', 'Forgotten', 'Bright', 'Hollow', 'Northern', 'Restless',
  'Paper', 'Iron', 'Gentle', 'Stolen', 'Endless', 'Velvet', 'Salt', 'Winter', 'Summer', 'Electric',
] as const;

export const NOUNS = [
  'Garden', 'River', 'House', 'Orchard', 'Lighthouse', 'Kingdom', 'Harbor', 'Letter', 'Mountain', 'Island',
  'Library', 'Forest', 'Storm', 'Bridge', 'Crown', 'Shadow', 'Map', 'Station', 'Compass', 'Mirror',
  'Daughter', 'Witness', 'Detective', 'Dragon', 'Engine', 'Lantern', 'Meadow', 'Voyage', 'Song', 'Promise',
] as const;

export const PLACES = [
  'Avalon', 'Brighton', 'Cedar Falls', 'Dunmore', 'Eastwick', 'Fairhaven', 'Glenrock', 'Hollowmere',
  'Kingsbridge', 'Larkspur', 'Marlow', 'Northgate', 'Oakridge', 'Port Elena', 'Ravenwood', 'Saltmarsh',
  'Thornbury', 'Westfall', 'Quebec', 'Tasmania', 'Wellington', 'Montana',
] as const;

export const FIRST_NAMES = [
  'Alice', 'Benjamin', 'Chloe', 'Daniel', 'Elena', 'Farah', 'Gabriel', 'Hannah', 'Isaac', 'Julia',
  'Kenji', 'Laura', 'Mateo', 'Nadia', 'Oliver', 'Priya', 'Quentin', 'Rosa', 'Samuel', 'Tessa',
  'Umar', 'Valerie', 'William', 'Ximena', 'Yusuf', 'Zoe', 'Amélie', 'Louis', 'Sofía', 'Aroha',
] as const;

export const LAST_NAMES = [
  'Anderson', 'Bennett', 'Carter', 'Dubois', 'Evans', 'Fischer', 'García', 'Hughes', 'Ito', 'Jensen',
  'Kowalski', 'Lambert', 'Martin', 'Nguyen', "O'Connor", 'Patel', 'Quinn', 'Rossi', 'Singh', 'Tremblay',
  'Underwood', 'Vargas', 'Walker', 'Xu', 'Young', 'Zimmerman', 'Roy', 'Morrison', 'Ngata', 'Moreau',
] as const;

export const PUBLISHERS = [
  'Harbor Light Press', 'Northwind Books', 'Blue Finch Publishing', 'Maple Leaf Media', 'Southern Cross Audio',
  'Riverbend Studios', 'Paper Lantern Comics', 'Kiwi Sound Records', 'Old Mill House', 'Atlas & Quill',
  'Éditions du Fleuve', 'Sunrise Pictures', 'Greenway Audio', 'Copperleaf Editions',
] as const;

export const GENRES_BY_FORMAT: Record<string, readonly string[]> = {
  EBOOK: ['Fiction', 'Mystery', 'Romance', 'Science Fiction', 'Fantasy', 'Biography', 'History', 'Self-Help', 'Cooking', 'Travel'],
  AUDIOBOOK: ['Fiction', 'Mystery', 'Thriller', 'Biography', 'History', 'Business', 'Fantasy', 'Humor'],
  COMIC: ['Superhero', 'Manga', 'Graphic Novel', 'Humor', 'Adventure', 'Fantasy'],
  MOVIE: ['Drama', 'Comedy', 'Documentary', 'Action', 'Family', 'Thriller', 'Animation'],
  TELEVISION: ['Drama', 'Comedy', 'Documentary', 'Reality', 'Crime', 'Kids'],
  MUSIC: ['Rock', 'Jazz', 'Classical', 'Pop', 'Folk', 'Hip-Hop', 'Country', 'Electronic'],
};

export const SYNOPSIS_OPENINGS = [
  'A sweeping story about', 'An intimate portrait of', 'A gripping tale of', 'A warm and funny look at',
  'The long-awaited account of', 'A haunting meditation on', 'A practical guide to', 'An unforgettable journey through',
] as const;

export const SYNOPSIS_SUBJECTS = [
  'family secrets and second chances', 'a town that refuses to change', 'friendship across an ocean',
  'a detective who cannot forget', 'the sea and the people who live by it', 'courage in a time of fear',
  'growing up between two languages', 'a garden that outlives its owners', 'music, memory and loss',
  'a map that leads nowhere and everywhere',
] as const;
