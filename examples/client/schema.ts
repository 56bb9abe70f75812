export interface paths {
    "/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Describe the API (no token needed)
         * @description Describe the API (no token needed).
         */
        get: operations["getApiIndex"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Who the token acts for, and how much of each limit is left
         * @description Intended as the first call: tells whether the token can write and how much of each limit is left.
         */
        get: operations["getMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The machine-readable description of this API (OpenAPI 3.1)
         * @description The machine-readable description of this API (OpenAPI 3.1).
         */
        get: operations["getOpenApi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/slot-types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Describe every slot type
         * @description Describe every slot type.
         */
        get: operations["listSlotTypes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/slot-types/{type}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Describe one slot type
         * @description Describe one slot type.
         */
        get: operations["getSlotType"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/profiles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the token owner's profiles
         * @description Every page of the account that granted the token, oldest first; meta.total counts them. Pages of other accounts never appear.
         */
        get: operations["listProfiles"];
        put?: never;
        /**
         * Create a profile
         * @description Creates an empty page at {public_base}/<login>. The login is 4 to 60 letters, digits, dots or underscores, not one of the 28 reserved words, and unique regardless of case (422 naming `login`); GET /profiles/check-login tests one first. A login of digits only (`20240611`) is allowed and its page is {public_base}/20240611, but a digits-only {profileKey} is always an id, so the API reaches that profile by its `id`. At most 100 profiles per user (409 limit_reached). The first profile of a user is its main one.
         */
        post: operations["createProfile"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/profiles/check-login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Check whether a login can be used
         * @description Answers whether `login` is free for a new profile or a rename, and if not, why: `invalid` (length or characters), `reserved` (one of the 28 reserved words) or `taken`. Pass `profile` (id or login of one of your profiles; digits only is an id) when renaming it, so its own current login is not reported as taken. An unknown or foreign `profile` is 404. A digits-only login is available like any other; its message reminds that API paths reach such a profile by its id.
         */
        get: operations["checkLogin"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/profiles/{profileKey}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a profile
         * @description With include=slots (a comma list; slots is the one value) the page comes with every slot in page order.
         */
        get: operations["getProfile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update a profile: title, description, images, socials
         * @description Omitted fields stay as they are; null clears a field; the body may be omitted. `avatar` and `bgImage` take paths returned by POST /files for your own uploads. `socials` replaces the whole row of social links: send `{link, order}` items only — icons are derived from the links and come back in computed.socials, so sending `icon` is 422. Problems are listed in `errors` keyed by field (`title`, `socials.2.icon`, `avatar`), all those of the request together.
         */
        patch: operations["updateProfile"];
        trace?: never;
    };
    "/profiles/{profileKey}/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a profile's login and language settings
         * @description The login, the page language (null: it follows the owner's language; computed.effectiveLanguageCode says which applies) and the choices a client may offer: options.languages and the login rules with the reserved words.
         */
        get: operations["getProfileSettings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change a profile's login or page language
         * @description Send `login` to move the page to a new address: the old address stops working at once, with no redirect, so links, QR codes and NFC tags pointing to it break; check the new one first with GET /profiles/check-login. Send `languageCode` (or `languageId`) from options.languages to set the page language, or null to follow the owner's language. Omitted fields stay as they are.
         */
        patch: operations["updateProfileSettings"];
        trace?: never;
    };
    "/profiles/{profileKey}/markdown": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The whole page as markdown, as a model reads it
         * @description Title, description, socials, then every slot in real page order with its real texts; empty blocks are shown as empty and legacy slots are marked unsupported. Answers text/markdown; the x-markdown-tokens header is its token count.
         */
        get: operations["getProfileMarkdown"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/profiles/{profileKey}/slots": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the slots of a page, in page order
         * @description List the slots of a page, in page order.
         */
        get: operations["listSlots"];
        put?: never;
        /**
         * Create a slot
         * @description Adds one slot; data is validated against the type’s schema (GET /slot-types/{type}). `order` inserts and shifts the rest down; without it the slot goes last. At most 500 slots per page (409 limit_reached).
         */
        post: operations["createSlot"];
        /**
         * Delete many slots at once
         * @description Ids as query ids[]=1&ids[]=2 or as JSON body {"ids": [1, 2]}. One id not on this page refuses the whole request. Permanent: click statistics go with the slots. Answers how many were deleted and how many remain.
         */
        delete: operations["deleteSlots"];
        options?: never;
        head?: never;
        /**
         * Update many slots at once
         * @description Merges each data over the slot’s current values at the top level; positions are untouched. All or nothing: one bad slot refuses the batch (keys slots.<index>.data.<field>); an event or legacy slot is 409 read_only.
         */
        patch: operations["updateSlots"];
        trace?: never;
    };
    "/profiles/{profileKey}/slots/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create many slots at once
         * @description 1 to 50 slots; array order is page order; insertAt places the whole batch (default: appended). All or nothing; error keys look like slots.<index>.data.<field>. Event and form slots are 409 read_only.
         */
        post: operations["createSlots"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/profiles/{profileKey}/slots/order": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Set the order of every slot
         * @description Pass every slot id of the page exactly once, in the new order (GET …/slots lists them). Legacy and event slots included.
         */
        put: operations["reorderSlots"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/profiles/{profileKey}/slots/{slot}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a slot
         * @description Read a slot.
         */
        get: operations["getSlot"];
        put?: never;
        post?: never;
        /**
         * Delete a slot
         * @description Permanent, no restore; its click statistics go with it. Read-only and legacy slots can be deleted.
         */
        delete: operations["deleteSlot"];
        options?: never;
        head?: never;
        /**
         * Update a slot
         * @description Merges data over the current values at the top level (send only what changes). The type cannot be changed; event and legacy slots are 409 read_only. The id, and so the click statistics, stay.
         */
        patch: operations["updateSlot"];
        trace?: never;
    };
    "/music/lookup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Find a release by UPC, ISRC, link or title and get a ready music slot
         * @description The first of two steps to a music slot: this call finds the release in the music catalogues (Deezer, Apple/iTunes) and its link on every platform (Odesli), and answers `slot`, which POST /profiles/{profileKey}/slots takes unchanged. A 12–13 digit query is a UPC, a 12-character code like USRC17607839 an ISRC, a link is looked up on every platform, anything else is searched as a release title (add `artist` to narrow it, `type=track` to find a song). Answers are cached for 24 hours. 404 when no catalogue knows the release; 503 when the catalogues cannot be reached (retry in a minute). Limited to 15 lookups per minute per token on top of the global limits.
         */
        get: operations["lookupMusic"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/files": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload an image
         * @description Send either a multipart form with one part "file" (up to 50 MB) or JSON {url} (the server downloads it), not both. Accepted: jpeg, png, webp, gif, checked from the bytes. Images are oriented by EXIF, stripped of metadata and downscaled to 800 px width; gif is kept as uploaded. Returns the path to put in avatar, bgImage or a picture/gallery slot.
         */
        post: operations["uploadFile"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/files/upload-url": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Get a signed URL to upload an image to
         * @description For clients that cannot send the file through the API themselves: the answer's upload_url takes one PUT of raw bytes (or POST of a multipart part "file"), up to 50 MB, without a token, within 15 minutes, and answers 201 {data: {path, src, width, height}} like POST /files.
         */
        post: operations["createUploadUrl"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/analytics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Views, visitors and clicks of every page of the account
         * @description One row per page (views, uniqueVisitors, clicks, ctr) plus account totals and the previous period's totals. Days are counted in the owner's time zone (GET /me analytics.timezone). Choose a `period` preset, or `dateFrom`/`dateTo` (inclusive; at most 366 days; a start after the end is 422); the default is last28. `previous` covers the period of equal length just before (turn it off with compare=false). `include=timeline` adds one point per `bucket` (day, week or month). Only people count: crawlers, link previews and prefetches are left out. Unique counts are approximate (HyperLogLog, ~0.8 %). Data is kept 365 days; answers are cached for meta.cacheSeconds. Example: GET /analytics?period=last7&include=timeline.
         */
        get: operations["getAccountAnalytics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/profiles/{profileKey}/analytics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Views, clicks per block and per social link, and findings for one page
         * @description Totals (views, uniqueVisitors, clicks, ctr), the same for the previous period, clicks and unique clicks of every block now on the page (deleted blocks lose theirs), clicks of every social link, and `insights`: short findings such as views up or down, the top block, blocks never clicked, a change in click-through rate and the best day. Days are counted in the owner's time zone (GET /me analytics.timezone). Choose a `period` preset, or `dateFrom`/`dateTo` (inclusive; at most 366 days; a start after the end is 422); the default is last28. `previous` covers the period of equal length just before (turn it off with compare=false). `include=timeline` adds one point per `bucket` (day, week or month). Only people count: crawlers, link previews and prefetches are left out. Unique counts are approximate (HyperLogLog, ~0.8 %). Data is kept 365 days; answers are cached for meta.cacheSeconds. Example: GET /profiles/jane.doe/analytics?period=last28&compare=true.
         */
        get: operations["getProfileAnalytics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * @example {
         *       "id": 118,
         *       "type": "youtube",
         *       "order": 2,
         *       "supported": true,
         *       "data": {
         *         "title": "Showreel",
         *         "description": "",
         *         "link": "https://youtu.be/dQw4w9WgXcQ"
         *       },
         *       "computed": {
         *         "videoId": "dQw4w9WgXcQ",
         *         "embedUrl": "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ",
         *         "thumbnailUrl": "https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg"
         *       },
         *       "createdAt": "2026-11-22T09:00:00.000Z",
         *       "updatedAt": "2026-11-22T09:00:00.000Z"
         *     }
         */
        Slot: {
            /** @description Slot id; click statistics are tied to it. */
            id: number;
            /** @description One of button, picture, gallery, text, youtube, faq, divider, event, music, form; another value is a legacy type (supported: false). */
            type: string;
            /** @description Position on the page, 0 first; always 0..n-1 without gaps. */
            order: number;
            /** @description False for a legacy slot type: it can be deleted or reordered, not edited. */
            supported: boolean;
            /** @description The body, in the shape of its type’s schema (GET /slot-types/{type}); anything for a legacy type. */
            data: components["schemas"]["ButtonData"] | components["schemas"]["PictureData"] | components["schemas"]["GalleryData"] | components["schemas"]["TextData"] | components["schemas"]["YoutubeData"] | components["schemas"]["FaqData"] | components["schemas"]["DividerData"] | components["schemas"]["EventData"] | components["schemas"]["MusicData"] | components["schemas"]["FormData"] | {
                [key: string]: unknown;
            };
            /** @description Server-derived and read-only; sending any of these names in data is 422. */
            computed: {
                [key: string]: unknown;
            };
            /** @description Present for unsupported slots: what can still be done with them. */
            message?: string;
            createdAt: string | null;
            updatedAt: string | null;
        };
        /**
         * @example {
         *       "id": 42,
         *       "login": "jane.doe",
         *       "title": "Jane Doe",
         *       "description": "Photographer in Lisbon.",
         *       "avatar": "u1/2026/11/avatar-3f9a.webp",
         *       "bgImage": null,
         *       "socials": [
         *         {
         *           "link": "https://instagram.com/jane.doe",
         *           "order": 0
         *         }
         *       ],
         *       "themeId": 1,
         *       "languageId": null,
         *       "computed": {
         *         "url": "https://slotline.example/jane.doe",
         *         "avatarUrl": "https://slotline.example/static/u1/2026/11/avatar-3f9a.webp",
         *         "bgImageUrl": null,
         *         "socials": [
         *           {
         *             "icon": "instagram"
         *           }
         *         ],
         *         "isMain": true,
         *         "status": true
         *       }
         *     }
         */
        Profile: {
            id: number;
            /** @description Public address segment. */
            login: string;
            title: string | null;
            description: string | null;
            avatar: string | null;
            bgImage: string | null;
            socials: {
                /**
                 * @description The social link as stored (scheme completed).
                 * @example https://instagram.com/jane.doe
                 */
                link: string;
                /**
                 * @description Position in the row of icons; socials are listed by it.
                 * @example 0
                 */
                order: number;
            }[];
            /** @description Read-only: themes are not accepted through the API. */
            themeId: number;
            languageId: number | null;
            computed: {
                /**
                 * @description The public address of the page: {public_base}/<login>.
                 * @example https://slotline.example/jane.doe
                 */
                url: string;
                avatarUrl: string | null;
                bgImageUrl: string | null;
                /** @description The icon derived for each social link, in the order of `socials`. */
                socials: {
                    /**
                     * @description Platform detected from the link host or scheme; `link` when none matches.
                     * @example instagram
                     */
                    icon: string;
                }[];
                /** @description The user's main profile: the first one created, unless another was marked main. */
                isMain: boolean;
                /** @description Published: the public page is served. */
                status: boolean;
            };
            /** @description Present with include=slots: every slot of the page, in page order. */
            slots?: components["schemas"]["Slot"][];
        };
        Error: {
            /** @description What went wrong and what to do next. */
            message: string;
            /** @description Machine-readable error code, e.g. not_found, validation_failed. */
            code: string;
            /** @description Field key → messages; keys look like data.items.0.path or slots.3.data.link. */
            errors: {
                [key: string]: string[];
            } | null;
            /** @description Link to this error in the API reference. */
            documentation: string;
        };
        ButtonData: {
            /**
             * @description The button text. Required unless subtitle is set.
             * @default
             */
            title?: string;
            /**
             * @description A second, smaller line.
             * @default
             */
            subtitle?: string;
            /** @description Where the button leads. A missing scheme is completed to https://; allowed schemes: http, https, mailto, tel, whatsapp. */
            link: string;
            /**
             * @description The colour style.
             * @default primary
             * @enum {string}
             */
            style?: "primary" | "bright" | "light" | "classic-dark" | "dull-gray" | "very-red" | "honey-yellow" | "money-green" | "grass-green" | "social-blue" | "outdated-coral" | "seems-lilac" | "pinkish" | "custom";
            /**
             * @description Required when style is custom (send {} for the defaults); stored as null for every other style.
             * @default null
             */
            customize?: {
                /**
                 * @description Background: a CSS colour (#RRGGBB, rgb(), hsl() or a name).
                 * @default #424248
                 */
                backgroundColor?: string;
                /**
                 * @description Title text: a CSS colour (#RRGGBB, rgb(), hsl() or a name).
                 * @default #FFFFFF
                 */
                textColor?: string;
                /**
                 * @description Subtitle text: a CSS colour (#RRGGBB, rgb(), hsl() or a name).
                 * @default #E0E7FF
                 */
                subtitleColor?: string;
                /**
                 * @description Corner radius in pixels.
                 * @default 12
                 */
                borderRadius?: number;
            } | null;
        };
        PictureData: {
            /** @description A path returned by POST /files (one of your uploads), not a URL. */
            path: string;
            /**
             * @description Where the picture leads when tapped. Empty for none. A missing scheme is completed to https://; allowed schemes: http, https, mailto, tel, whatsapp.
             * @default
             */
            link?: string;
            /**
             * @description Display width.
             * @default large
             * @enum {string}
             */
            size?: "large" | "medium" | "small";
        };
        GalleryData: {
            /**
             * @description Shown above the images.
             * @default
             */
            title?: string;
            /** @description The images, in display order. */
            items: {
                /** @description A path returned by POST /files (one of your uploads); unique within the slot. */
                path: string;
                /**
                 * @description Plain-text caption (HTML is stripped).
                 * @default
                 */
                text?: string;
                /**
                 * @description Where the image leads when tapped. Empty for none. A missing scheme is completed to https://; allowed schemes: http, https, mailto, tel, whatsapp.
                 * @default
                 */
                link?: string;
            }[];
        };
        TextData: {
            /**
             * @description The heading. Required unless description is set.
             * @default
             */
            title?: string;
            /**
             * @description Limited HTML: p, ul, ol, li, strong, em, s, u, span, br are kept (without attributes), everything else is stripped on save.
             * @default
             */
            description?: string;
            /**
             * @description border: shown as a card; plain: bare text.
             * @default border
             * @enum {string}
             */
            textStyle?: "border" | "plain";
            /**
             * @description Destination of the whole block. Empty for none. A missing scheme is completed to https://; allowed schemes: http, https, mailto, tel, whatsapp.
             * @default
             */
            link?: string;
        };
        YoutubeData: {
            /**
             * @description Shown under the video.
             * @default
             */
            title?: string;
            /**
             * @description Plain text under the title (HTML is stripped).
             * @default
             */
            description?: string;
            /** @description A YouTube video link; the video id is extracted server-side. */
            link: string;
        };
        FaqData: {
            /**
             * @description Shown above the questions.
             * @default
             */
            title?: string;
            /**
             * @description border-faq: rows in cards; plain-faq: bare rows.
             * @default border-faq
             * @enum {string}
             */
            faqStyle?: "border-faq" | "plain-faq";
            /** @description The rows, in display order. */
            items: {
                /** @description Stable id of the row; generated by the server when omitted. */
                id?: string;
                /** @description The question. Plain text; must not be empty. */
                title: string;
                /** @description The answer. Plain text (newlines kept); must not be empty. */
                text: string;
            }[];
        };
        /** @description No fields: an empty object or an empty array. */
        DividerData: Record<string, never> | unknown[];
        EventData: {
            /** @description Id of the linked event. */
            eventId: number;
        };
        MusicData: {
            /**
             * @description Only selects the dashboard dialog section; keep manual for API-created slots.
             * @default manual
             * @enum {string}
             */
            mode?: "auto" | "manual";
            /**
             * @description How the platform buttons look.
             * @default tapter
             * @enum {string}
             */
            style?: "tapter" | "bubble" | "light" | "gradient" | "brutal" | "cyber" | "minimal";
            /**
             * @description Release title.
             * @default
             */
            album?: string;
            /**
             * @description Artist name.
             * @default
             */
            artist?: string;
            /**
             * @description Cover image URL (http or https); empty for none.
             * @default
             */
            thumbnail?: string;
            /**
             * @description Show the cover image.
             * @default true
             */
            showCover?: boolean;
            /** @description One link per platform. */
            links: {
                /** @description The release on one platform (http or https); the platform is detected from the host. */
                link: string;
                /** @description Position among the links; defaults to the index in the array. */
                order?: number;
            }[];
        };
        FormData: {
            /** @description Id of the linked form. */
            formId: number;
            /**
             * @description inline: the form on the page; button: a button that opens it.
             * @default inline
             * @enum {string}
             */
            view?: "inline" | "button";
            /**
             * @description Draw a frame around an inline form.
             * @default true
             */
            framed?: boolean;
            /**
             * @description Label of the button when view is button (the form title when empty).
             * @default
             */
            buttonText?: string;
            /**
             * @description Colour style of the button.
             * @default primary
             * @enum {string}
             */
            style?: "primary" | "bright" | "light" | "classic-dark" | "dull-gray" | "very-red" | "honey-yellow" | "money-green" | "grass-green" | "social-blue" | "outdated-coral" | "seems-lilac" | "pinkish" | "custom";
            /**
             * @description Required when style is custom (send {} for the defaults); stored as null for every other style.
             * @default null
             */
            customize?: {
                /**
                 * @description Background: a CSS colour (#RRGGBB, rgb(), hsl() or a name).
                 * @default #424248
                 */
                backgroundColor?: string;
                /**
                 * @description Text: a CSS colour (#RRGGBB, rgb(), hsl() or a name).
                 * @default #FFFFFF
                 */
                textColor?: string;
                /**
                 * @description Corner radius in pixels.
                 * @default 12
                 */
                borderRadius?: number;
            } | null;
        };
        /** @description A new button slot. */
        ButtonSlotData: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "button";
            data?: components["schemas"]["ButtonData"];
        };
        /** @description A new picture slot. */
        PictureSlotData: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "picture";
            data?: components["schemas"]["PictureData"];
        };
        /** @description A new gallery slot. */
        GallerySlotData: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "gallery";
            data?: components["schemas"]["GalleryData"];
        };
        /** @description A new text slot. */
        TextSlotData: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "text";
            data?: components["schemas"]["TextData"];
        };
        /** @description A new youtube slot. */
        YoutubeSlotData: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "youtube";
            data?: components["schemas"]["YoutubeData"];
        };
        /** @description A new faq slot. */
        FaqSlotData: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "faq";
            data?: components["schemas"]["FaqData"];
        };
        /** @description A new divider slot. */
        DividerSlotData: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "divider";
            data?: components["schemas"]["DividerData"];
        };
        /** @description A new music slot. */
        MusicSlotData: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "music";
            data?: components["schemas"]["MusicData"];
        };
        /** @description A new slot: its type and the data in that type’s shape (GET /slot-types/{type}). Unknown and computed keys are 422, each named. */
        SlotData: components["schemas"]["ButtonSlotData"] | components["schemas"]["PictureSlotData"] | components["schemas"]["GallerySlotData"] | components["schemas"]["TextSlotData"] | components["schemas"]["YoutubeSlotData"] | components["schemas"]["FaqSlotData"] | components["schemas"]["DividerSlotData"] | components["schemas"]["MusicSlotData"];
    };
    responses: {
        /** @description The request could not be parsed. */
        E400: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "message": "The request body could not be parsed.",
                 *       "code": "malformed_request",
                 *       "errors": null,
                 *       "documentation": "http://127.0.0.1:8080/v1/docs#error-malformed_request"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Missing, invalid or revoked token. */
        E401: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "message": "A valid bearer token is required: send Authorization: Bearer <token>.",
                 *       "code": "unauthenticated",
                 *       "errors": null,
                 *       "documentation": "http://127.0.0.1:8080/v1/docs#error-unauthenticated"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The token lacks the ability this operation needs. */
        E403: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "message": "This token is not allowed to perform this operation.",
                 *       "code": "forbidden",
                 *       "errors": null,
                 *       "documentation": "http://127.0.0.1:8080/v1/docs#error-forbidden"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Not found (pages of other accounts included). */
        E404: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "message": "The requested resource was not found.",
                 *       "code": "not_found",
                 *       "errors": null,
                 *       "documentation": "http://127.0.0.1:8080/v1/docs#error-not_found"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description A business rule is violated: a count limit is reached, or a read-only resource. */
        E409: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "message": "A count limit has been reached.",
                 *       "code": "limit_reached",
                 *       "errors": null,
                 *       "documentation": "http://127.0.0.1:8080/v1/docs#error-limit_reached"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The request body is too large. */
        E413: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "message": "The request body is too large.",
                 *       "code": "payload_too_large",
                 *       "errors": null,
                 *       "documentation": "http://127.0.0.1:8080/v1/docs#error-payload_too_large"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The body is not in a content type this operation takes. */
        E415: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "message": "Send application/json (or multipart/form-data where the endpoint takes files).",
                 *       "code": "unsupported_media_type",
                 *       "errors": null,
                 *       "documentation": "http://127.0.0.1:8080/v1/docs#error-unsupported_media_type"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Validation failed: every offending field is listed in errors. */
        E422: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "message": "The given data was invalid.",
                 *       "code": "validation_failed",
                 *       "errors": {
                 *         "data.link": [
                 *           "This field is required."
                 *         ]
                 *       },
                 *       "documentation": "http://127.0.0.1:8080/v1/docs#error-validation_failed"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Rate limit exceeded; see Retry-After. */
        E429: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Retry-After": components["headers"]["Retry-After"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "message": "Too many requests; retry after the number of seconds in Retry-After.",
                 *       "code": "rate_limited",
                 *       "errors": null,
                 *       "documentation": "http://127.0.0.1:8080/v1/docs#error-rate_limited"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description An upstream service is unavailable. */
        E503: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "message": "An upstream service is unavailable; try again later.",
                 *       "code": "upstream_unavailable",
                 *       "errors": null,
                 *       "documentation": "http://127.0.0.1:8080/v1/docs#error-upstream_unavailable"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description The request id (yours when you sent a valid X-Request-Id); quote it when reporting a problem. */
        "X-Request-Id": string;
        /** @description Requests allowed in the current window of the tightest limit. */
        "RateLimit-Limit": number;
        /** @description Requests left in that window. */
        "RateLimit-Remaining": number;
        /** @description Seconds until that window resets. */
        "RateLimit-Reset": number;
        /** @description Seconds to wait before retrying. */
        "Retry-After": number;
        /** @description true when this is the stored answer to an earlier request with the same Idempotency-Key. */
        "Idempotent-Replayed": "true";
        /** @description Token count of the markdown (o200k_base). */
        "X-Markdown-Tokens": number;
        /** @description true on every answer to a Precognition request. */
        Precognition: "true";
        /** @description true when the dry run passed every check. */
        "Precognition-Success": "true";
        /** @description Bearer challenge. */
        "WWW-Authenticate": string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getApiIndex: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            429: components["responses"]["E429"];
        };
    };
    getMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            userId: number;
                            name: string;
                            abilities: string[];
                            canWrite: boolean;
                            limits: {
                                profiles: {
                                    used: number;
                                    max: number;
                                };
                                slotsPerProfile: number;
                                slotsPerBatch: number;
                                tokens: {
                                    used: number;
                                    max: number;
                                };
                                rateLimit: {
                                    requestsPerSecond: number;
                                    requestsPerMinute: number;
                                    musicLookupPerMinute: number;
                                    analyticsPerMinute: number;
                                };
                                upload: {
                                    maxMegabytes: number;
                                    maxMegabytesFromUrl: number;
                                };
                            };
                            analytics: {
                                retentionDays: number;
                                timezone: string;
                            };
                        };
                    };
                };
            };
            401: components["responses"]["E401"];
            429: components["responses"]["E429"];
        };
    };
    getOpenApi: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            401: components["responses"]["E401"];
            429: components["responses"]["E429"];
        };
    };
    listSlotTypes: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description The type name used in slot.type. */
                            type: string;
                            /** @description Human name. */
                            title: string;
                            /** @description What the block is and how to write it. */
                            description: string;
                            /** @description False: slots of this type can be read, deleted and reordered, not created or changed. */
                            writable: boolean;
                            /** @description JSON Schema of data, exactly as writes are validated. */
                            schema: {
                                [key: string]: unknown;
                            };
                            /** @description JSON Schema of computed (server-derived, read-only). */
                            computed: {
                                [key: string]: unknown;
                            };
                            /** @description Field → enum value → label for people. */
                            enumLabels: {
                                [key: string]: {
                                    [key: string]: string;
                                };
                            };
                            /** @description Valid data for this type. */
                            example: {
                                [key: string]: unknown;
                            };
                        }[];
                    };
                };
            };
            401: components["responses"]["E401"];
            429: components["responses"]["E429"];
        };
    };
    getSlotType: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A slot type name. */
                type: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description The type name used in slot.type. */
                            type: string;
                            /** @description Human name. */
                            title: string;
                            /** @description What the block is and how to write it. */
                            description: string;
                            /** @description False: slots of this type can be read, deleted and reordered, not created or changed. */
                            writable: boolean;
                            /** @description JSON Schema of data, exactly as writes are validated. */
                            schema: {
                                [key: string]: unknown;
                            };
                            /** @description JSON Schema of computed (server-derived, read-only). */
                            computed: {
                                [key: string]: unknown;
                            };
                            /** @description Field → enum value → label for people. */
                            enumLabels: {
                                [key: string]: {
                                    [key: string]: string;
                                };
                            };
                            /** @description Valid data for this type. */
                            example: {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
            };
            401: components["responses"]["E401"];
            404: components["responses"]["E404"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    listProfiles: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Profile"][];
                        meta: {
                            total: number;
                        };
                    };
                };
            };
            401: components["responses"]["E401"];
            429: components["responses"]["E429"];
        };
    };
    createProfile: {
        parameters: {
            query?: never;
            header?: {
                /** @description Repeat-safe writes: the same key within 24 hours returns the stored response; with another body it is 422. */
                "Idempotency-Key"?: string;
                /** @description true: validate only. 204 on success, 422/409 as the real call would answer; nothing is stored. */
                Precognition?: "true";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description The public address segment; check availability with GET /profiles/check-login. Digits only is allowed (the page is /<digits>), but API paths then reach the profile by its id.
                     * @example jane.doe
                     */
                    login: string;
                };
            };
        };
        responses: {
            /** @description Success. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Profile"];
                    };
                };
            };
            /** @description Dry run (Precognition: true) passed every check; nothing was stored. */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Precognition: components["headers"]["Precognition"];
                    "Precognition-Success": components["headers"]["Precognition-Success"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            409: components["responses"]["E409"];
            413: components["responses"]["E413"];
            415: components["responses"]["E415"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    checkLogin: {
        parameters: {
            query: {
                /** @description The login to check. */
                login: string;
                /** @description Id or login of one of your profiles: its current login is not reported as taken (checking a rename). Digits only is always an id. */
                profile?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @example {
                         *       "login": "jane.doe",
                         *       "profile": null,
                         *       "available": false,
                         *       "reason": "taken",
                         *       "message": "The login \"jane.doe\" is already taken."
                         *     }
                         */
                        data: {
                            /** @description The login as checked. */
                            login: string;
                            profile: string | null;
                            /** @description True when PATCH /profiles/{profileKey}/settings (or POST /profiles) would accept it. */
                            available: boolean;
                            reason: ("invalid" | "reserved" | "taken") | null;
                            /** @description A sentence saying why, for people. */
                            message: string;
                        };
                    };
                };
            };
            401: components["responses"]["E401"];
            404: components["responses"]["E404"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    getProfile: {
        parameters: {
            query?: {
                /** @description Extras to embed, comma separated: slots. */
                include?: string;
            };
            header?: never;
            path: {
                /** @description A numeric profile id or a login. A segment made only of digits is always an id, so a profile whose login is digits only is reached by its id. */
                profileKey: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Profile"];
                    };
                };
            };
            401: components["responses"]["E401"];
            404: components["responses"]["E404"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    updateProfile: {
        parameters: {
            query?: never;
            header?: {
                /** @description Repeat-safe writes: the same key within 24 hours returns the stored response; with another body it is 422. */
                "Idempotency-Key"?: string;
                /** @description true: validate only. 204 on success, 422/409 as the real call would answer; nothing is stored. */
                Precognition?: "true";
            };
            path: {
                /** @description A numeric profile id or a login. A segment made only of digits is always an id, so a profile whose login is digits only is reached by its id. */
                profileKey: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    title?: string | null;
                    description?: string | null;
                    avatar?: string | null;
                    bgImage?: string | null;
                    /** @description Replaces every social link (at most 30); [] removes them all. Icons come back in computed.socials. */
                    socials?: {
                        /**
                         * @description A missing scheme is completed to https://. Allowed schemes: http, https, mailto, tel, whatsapp.
                         * @example instagram.com/jane.doe
                         * @example mailto:jane@example.com
                         */
                        link: string;
                        /** @description Position in the row; defaults to the index in the array. Each social needs its own. */
                        order?: number;
                    }[];
                };
            };
        };
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Profile"];
                    };
                };
            };
            /** @description Dry run (Precognition: true) passed every check; nothing was stored. */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Precognition: components["headers"]["Precognition"];
                    "Precognition-Success": components["headers"]["Precognition-Success"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            409: components["responses"]["E409"];
            413: components["responses"]["E413"];
            415: components["responses"]["E415"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    getProfileSettings: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A numeric profile id or a login. A segment made only of digits is always an id, so a profile whose login is digits only is reached by its id. */
                profileKey: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @example {
                         *       "profileId": 42,
                         *       "login": "jane.doe",
                         *       "languageId": null,
                         *       "languageCode": null,
                         *       "computed": {
                         *         "url": "https://slotline.example/jane.doe",
                         *         "effectiveLanguageCode": "en"
                         *       },
                         *       "options": {
                         *         "languages": [
                         *           {
                         *             "id": 1,
                         *             "code": "en",
                         *             "name": "English"
                         *           },
                         *           {
                         *             "id": 2,
                         *             "code": "de",
                         *             "name": "Deutsch"
                         *           }
                         *         ],
                         *         "login": {
                         *           "minLength": 4,
                         *           "maxLength": 60,
                         *           "pattern": "^[a-zA-Z0-9._]+$",
                         *           "reserved": [
                         *             "adm",
                         *             "agreements",
                         *             "api"
                         *           ]
                         *         }
                         *       }
                         *     }
                         */
                        data: {
                            profileId: number;
                            /** @description The public address segment. */
                            login: string;
                            languageId: number | null;
                            languageCode: string | null;
                            computed: {
                                /** @description The public address of the page. */
                                url: string;
                                /** @description The language the page actually renders in: languageCode, or the owner's language when that is null. */
                                effectiveLanguageCode: string;
                            };
                            options: {
                                /** @description The active languages a page can be set to. */
                                languages: {
                                    /** @example 1 */
                                    id: number;
                                    /**
                                     * @description ISO 639-1 code.
                                     * @example en
                                     */
                                    code: string;
                                    /**
                                     * @description The name in the language itself.
                                     * @example English
                                     */
                                    name: string;
                                }[];
                                login: {
                                    /** @example 4 */
                                    minLength: number;
                                    /** @example 60 */
                                    maxLength: number;
                                    /** @example ^[a-zA-Z0-9._]+$ */
                                    pattern: string;
                                    /** @description Words no login may be (compared case-insensitively). */
                                    reserved: string[];
                                };
                            };
                        };
                    };
                };
            };
            401: components["responses"]["E401"];
            404: components["responses"]["E404"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    updateProfileSettings: {
        parameters: {
            query?: never;
            header?: {
                /** @description Repeat-safe writes: the same key within 24 hours returns the stored response; with another body it is 422. */
                "Idempotency-Key"?: string;
                /** @description true: validate only. 204 on success, 422/409 as the real call would answer; nothing is stored. */
                Precognition?: "true";
            };
            path: {
                /** @description A numeric profile id or a login. A segment made only of digits is always an id, so a profile whose login is digits only is reached by its id. */
                profileKey: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /**
                     * @description A new public address. The old address stops working at once, with no redirect: links, QR codes and NFC tags to it break. Check it first with GET /profiles/check-login.
                     * @example jane.photo
                     */
                    login?: string;
                    languageCode?: string | null;
                    languageId?: number | null;
                };
            };
        };
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @example {
                         *       "profileId": 42,
                         *       "login": "jane.doe",
                         *       "languageId": null,
                         *       "languageCode": null,
                         *       "computed": {
                         *         "url": "https://slotline.example/jane.doe",
                         *         "effectiveLanguageCode": "en"
                         *       },
                         *       "options": {
                         *         "languages": [
                         *           {
                         *             "id": 1,
                         *             "code": "en",
                         *             "name": "English"
                         *           },
                         *           {
                         *             "id": 2,
                         *             "code": "de",
                         *             "name": "Deutsch"
                         *           }
                         *         ],
                         *         "login": {
                         *           "minLength": 4,
                         *           "maxLength": 60,
                         *           "pattern": "^[a-zA-Z0-9._]+$",
                         *           "reserved": [
                         *             "adm",
                         *             "agreements",
                         *             "api"
                         *           ]
                         *         }
                         *       }
                         *     }
                         */
                        data: {
                            profileId: number;
                            /** @description The public address segment. */
                            login: string;
                            languageId: number | null;
                            languageCode: string | null;
                            computed: {
                                /** @description The public address of the page. */
                                url: string;
                                /** @description The language the page actually renders in: languageCode, or the owner's language when that is null. */
                                effectiveLanguageCode: string;
                            };
                            options: {
                                /** @description The active languages a page can be set to. */
                                languages: {
                                    /** @example 1 */
                                    id: number;
                                    /**
                                     * @description ISO 639-1 code.
                                     * @example en
                                     */
                                    code: string;
                                    /**
                                     * @description The name in the language itself.
                                     * @example English
                                     */
                                    name: string;
                                }[];
                                login: {
                                    /** @example 4 */
                                    minLength: number;
                                    /** @example 60 */
                                    maxLength: number;
                                    /** @example ^[a-zA-Z0-9._]+$ */
                                    pattern: string;
                                    /** @description Words no login may be (compared case-insensitively). */
                                    reserved: string[];
                                };
                            };
                        };
                    };
                };
            };
            /** @description Dry run (Precognition: true) passed every check; nothing was stored. */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Precognition: components["headers"]["Precognition"];
                    "Precognition-Success": components["headers"]["Precognition-Success"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            409: components["responses"]["E409"];
            413: components["responses"]["E413"];
            415: components["responses"]["E415"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    getProfileMarkdown: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A numeric profile id or a login. A segment made only of digits is always an id, so a profile whose login is digits only is reached by its id. */
                profileKey: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "X-Markdown-Tokens": components["headers"]["X-Markdown-Tokens"];
                    [name: string]: unknown;
                };
                content: {
                    "text/markdown": string;
                };
            };
            401: components["responses"]["E401"];
            404: components["responses"]["E404"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    listSlots: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A numeric profile id or a login. A segment made only of digits is always an id, so a profile whose login is digits only is reached by its id. */
                profileKey: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Slot"][];
                    };
                };
            };
            401: components["responses"]["E401"];
            404: components["responses"]["E404"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    createSlot: {
        parameters: {
            query?: never;
            header?: {
                /** @description Repeat-safe writes: the same key within 24 hours returns the stored response; with another body it is 422. */
                "Idempotency-Key"?: string;
                /** @description true: validate only. 204 on success, 422/409 as the real call would answer; nothing is stored. */
                Precognition?: "true";
            };
            path: {
                /** @description A numeric profile id or a login. A segment made only of digits is always an id, so a profile whose login is digits only is reached by its id. */
                profileKey: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": (components["schemas"]["ButtonSlotData"] & {
                    /** @description Position to insert at (0 first); later slots move down. Without it the slot goes last. */
                    order?: number;
                }) | (components["schemas"]["PictureSlotData"] & {
                    /** @description Position to insert at (0 first); later slots move down. Without it the slot goes last. */
                    order?: number;
                }) | (components["schemas"]["GallerySlotData"] & {
                    /** @description Position to insert at (0 first); later slots move down. Without it the slot goes last. */
                    order?: number;
                }) | (components["schemas"]["TextSlotData"] & {
                    /** @description Position to insert at (0 first); later slots move down. Without it the slot goes last. */
                    order?: number;
                }) | (components["schemas"]["YoutubeSlotData"] & {
                    /** @description Position to insert at (0 first); later slots move down. Without it the slot goes last. */
                    order?: number;
                }) | (components["schemas"]["FaqSlotData"] & {
                    /** @description Position to insert at (0 first); later slots move down. Without it the slot goes last. */
                    order?: number;
                }) | (components["schemas"]["DividerSlotData"] & {
                    /** @description Position to insert at (0 first); later slots move down. Without it the slot goes last. */
                    order?: number;
                }) | (components["schemas"]["MusicSlotData"] & {
                    /** @description Position to insert at (0 first); later slots move down. Without it the slot goes last. */
                    order?: number;
                });
            };
        };
        responses: {
            /** @description Success. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Slot"];
                    };
                };
            };
            /** @description Dry run (Precognition: true) passed every check; nothing was stored. */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Precognition: components["headers"]["Precognition"];
                    "Precognition-Success": components["headers"]["Precognition-Success"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            409: components["responses"]["E409"];
            413: components["responses"]["E413"];
            415: components["responses"]["E415"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    deleteSlots: {
        parameters: {
            query?: {
                /** @description The slot ids to delete: ids[]=1&ids[]=2. */
                "ids[]"?: number[];
            };
            header?: {
                /** @description Repeat-safe writes: the same key within 24 hours returns the stored response; with another body it is 422. */
                "Idempotency-Key"?: string;
                /** @description true: validate only. 204 on success, 422/409 as the real call would answer; nothing is stored. */
                Precognition?: "true";
            };
            path: {
                /** @description A numeric profile id or a login. A segment made only of digits is always an id, so a profile whose login is digits only is reached by its id. */
                profileKey: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description The slot ids to delete, when not sent as query ids[]. */
                    ids?: number[];
                };
            };
        };
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        meta: {
                            deleted: number;
                            /** @description Slots left on the page. */
                            total: number;
                        };
                    };
                };
            };
            /** @description Dry run (Precognition: true) passed every check; nothing was stored. */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Precognition: components["headers"]["Precognition"];
                    "Precognition-Success": components["headers"]["Precognition-Success"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            409: components["responses"]["E409"];
            413: components["responses"]["E413"];
            415: components["responses"]["E415"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    updateSlots: {
        parameters: {
            query?: never;
            header?: {
                /** @description Repeat-safe writes: the same key within 24 hours returns the stored response; with another body it is 422. */
                "Idempotency-Key"?: string;
                /** @description true: validate only. 204 on success, 422/409 as the real call would answer; nothing is stored. */
                Precognition?: "true";
            };
            path: {
                /** @description A numeric profile id or a login. A segment made only of digits is always an id, so a profile whose login is digits only is reached by its id. */
                profileKey: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description Each slot once; data is merged over its current values at the top level. */
                    slots: {
                        /** @description A slot of this page. */
                        id: number;
                        /** @description The slot body, in the shape of its type’s schema (GET /slot-types/{type}). Unknown keys and computed keys are 422, each one named. */
                        data: {
                            [key: string]: unknown;
                        };
                    }[];
                };
            };
        };
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Slot"][];
                    };
                };
            };
            /** @description Dry run (Precognition: true) passed every check; nothing was stored. */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Precognition: components["headers"]["Precognition"];
                    "Precognition-Success": components["headers"]["Precognition-Success"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            409: components["responses"]["E409"];
            413: components["responses"]["E413"];
            415: components["responses"]["E415"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    createSlots: {
        parameters: {
            query?: never;
            header?: {
                /** @description Repeat-safe writes: the same key within 24 hours returns the stored response; with another body it is 422. */
                "Idempotency-Key"?: string;
                /** @description true: validate only. 204 on success, 422/409 as the real call would answer; nothing is stored. */
                Precognition?: "true";
            };
            path: {
                /** @description A numeric profile id or a login. A segment made only of digits is always an id, so a profile whose login is digits only is reached by its id. */
                profileKey: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Array order is page order. */
                    slots: components["schemas"]["SlotData"][];
                    insertAt?: number | null;
                };
            };
        };
        responses: {
            /** @description Success. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Slot"][];
                    };
                };
            };
            /** @description Dry run (Precognition: true) passed every check; nothing was stored. */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Precognition: components["headers"]["Precognition"];
                    "Precognition-Success": components["headers"]["Precognition-Success"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            409: components["responses"]["E409"];
            413: components["responses"]["E413"];
            415: components["responses"]["E415"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    reorderSlots: {
        parameters: {
            query?: never;
            header?: {
                /** @description Repeat-safe writes: the same key within 24 hours returns the stored response; with another body it is 422. */
                "Idempotency-Key"?: string;
                /** @description true: validate only. 204 on success, 422/409 as the real call would answer; nothing is stored. */
                Precognition?: "true";
            };
            path: {
                /** @description A numeric profile id or a login. A segment made only of digits is always an id, so a profile whose login is digits only is reached by its id. */
                profileKey: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Every slot id of the page exactly once, in the new order. */
                    order: number[];
                };
            };
        };
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Slot"][];
                    };
                };
            };
            /** @description Dry run (Precognition: true) passed every check; nothing was stored. */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Precognition: components["headers"]["Precognition"];
                    "Precognition-Success": components["headers"]["Precognition-Success"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            409: components["responses"]["E409"];
            413: components["responses"]["E413"];
            415: components["responses"]["E415"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    getSlot: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A numeric profile id or a login. A segment made only of digits is always an id, so a profile whose login is digits only is reached by its id. */
                profileKey: string;
                /** @description The slot id. */
                slot: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Slot"];
                    };
                };
            };
            401: components["responses"]["E401"];
            404: components["responses"]["E404"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    deleteSlot: {
        parameters: {
            query?: never;
            header?: {
                /** @description Repeat-safe writes: the same key within 24 hours returns the stored response; with another body it is 422. */
                "Idempotency-Key"?: string;
                /** @description true: validate only. 204 on success, 422/409 as the real call would answer; nothing is stored. */
                Precognition?: "true";
            };
            path: {
                /** @description A numeric profile id or a login. A segment made only of digits is always an id, so a profile whose login is digits only is reached by its id. */
                profileKey: string;
                /** @description The slot id. */
                slot: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success, no body. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            409: components["responses"]["E409"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    updateSlot: {
        parameters: {
            query?: never;
            header?: {
                /** @description Repeat-safe writes: the same key within 24 hours returns the stored response; with another body it is 422. */
                "Idempotency-Key"?: string;
                /** @description true: validate only. 204 on success, 422/409 as the real call would answer; nothing is stored. */
                Precognition?: "true";
            };
            path: {
                /** @description A numeric profile id or a login. A segment made only of digits is always an id, so a profile whose login is digits only is reached by its id. */
                profileKey: string;
                /** @description The slot id. */
                slot: number;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description The slot body, in the shape of its type’s schema (GET /slot-types/{type}). Unknown keys and computed keys are 422, each one named. */
                    data: {
                        [key: string]: unknown;
                    };
                    /** @description Optional; must be the slot’s current type: a type cannot be changed. */
                    type?: string;
                };
            };
        };
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Slot"];
                    };
                };
            };
            /** @description Dry run (Precognition: true) passed every check; nothing was stored. */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Precognition: components["headers"]["Precognition"];
                    "Precognition-Success": components["headers"]["Precognition-Success"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            409: components["responses"]["E409"];
            413: components["responses"]["E413"];
            415: components["responses"]["E415"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    lookupMusic: {
        parameters: {
            query: {
                /** @description What you have: a UPC or EAN barcode (12 or 13 digits, spaces allowed), an ISRC (12 characters, dashes allowed), a link to the release or track on any music platform (Spotify, Apple Music, YouTube Music, Deezer, TIDAL, Amazon Music, SoundCloud, Yandex Music, …), or the release title. */
                query: string;
                /** @description Narrows a title search to this artist; ignored for a UPC, ISRC or link. */
                artist?: string;
                /** @description What a title-plus-artist search looks for (album unless told); ignored otherwise. */
                type?: "album" | "track";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description The query as sent. */
                            query: string;
                            /** @description How the query was read. */
                            matchedBy: "upc" | "isrc" | "url" | "title";
                            album: string | null;
                            artist: string | null;
                            thumbnail: string | null;
                            /** @description One link per platform, in the order the slot shows them (at most 15). */
                            links: {
                                /** @description Platform id: spotify, appleMusic, youtubeMusic, deezer, tidal, amazonMusic, … */
                                platform: string;
                                /** @description Platform name for people. */
                                label: string;
                                /** @description Icon name, as in a music slot’s computed.links[].icon. */
                                icon: string;
                                /** @description The release on that platform. */
                                url: string;
                            }[];
                            /** @description Send this object unchanged as the body of POST /profiles/{profileKey}/slots. */
                            slot: {
                                /** @constant */
                                type: "music";
                                data: components["schemas"]["MusicData"];
                            };
                        };
                    };
                };
            };
            401: components["responses"]["E401"];
            404: components["responses"]["E404"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
            503: components["responses"]["E503"];
        };
    };
    uploadFile: {
        parameters: {
            query?: never;
            header?: {
                /** @description Repeat-safe writes: the same key within 24 hours returns the stored response; with another body it is 422. */
                "Idempotency-Key"?: string;
                /** @description true: validate only. 204 on success, 422/409 as the real call would answer; nothing is stored. */
                Precognition?: "true";
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /**
                     * Format: uri
                     * @description An http(s) image URL on a default port; downloaded by the server (at most 10 MB within 10 s). Private network addresses are refused.
                     * @example https://example.com/avatar.png
                     */
                    url?: string;
                };
                "multipart/form-data": {
                    /** Format: binary */
                    file: string;
                };
            };
        };
        responses: {
            /** @description Success. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /**
                             * @description Opaque file path: what avatar, bgImage, picture and gallery items take.
                             * @example u7/3q2-9xkTb4rQd1Yc0w5ZPg.webp
                             */
                            path: string;
                            /**
                             * Format: uri
                             * @description Public URL of the stored image.
                             */
                            src: string;
                            width: number | null;
                            height: number | null;
                        };
                    };
                };
            };
            /** @description Dry run (Precognition: true) passed every check; nothing was stored. */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Precognition: components["headers"]["Precognition"];
                    "Precognition-Success": components["headers"]["Precognition-Success"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            409: components["responses"]["E409"];
            413: components["responses"]["E413"];
            415: components["responses"]["E415"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    createUploadUrl: {
        parameters: {
            query?: never;
            header?: {
                /** @description Repeat-safe writes: the same key within 24 hours returns the stored response; with another body it is 422. */
                "Idempotency-Key"?: string;
                /** @description true: validate only. 204 on success, 422/409 as the real call would answer; nothing is stored. */
                Precognition?: "true";
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /**
                             * Format: uri
                             * @description Send the image here without a token: PUT raw bytes, or POST a multipart part "file".
                             */
                            upload_url: string;
                            /** @constant */
                            method: "PUT";
                            /** @description Largest accepted body in bytes. */
                            max_bytes: number;
                            /**
                             * Format: date-time
                             * @description The URL stops working at this time (15 minutes after issue); it takes one upload.
                             */
                            expires_at: string;
                        };
                    };
                };
            };
            /** @description Dry run (Precognition: true) passed every check; nothing was stored. */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Precognition: components["headers"]["Precognition"];
                    "Precognition-Success": components["headers"]["Precognition-Success"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            409: components["responses"]["E409"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    getAccountAnalytics: {
        parameters: {
            query?: {
                /** @description A preset in the owner's time zone: today, yesterday, last7 / last28 / last90 (ending today, today included), thisMonth (1st to today), lastMonth. Without period and dates: last28. Not combinable with dateFrom/dateTo. */
                period?: "today" | "yesterday" | "last7" | "last28" | "last90" | "thisMonth" | "lastMonth";
                /** @description First day of the period (inclusive, owner's time zone). Without dateTo the period ends today. */
                dateFrom?: string;
                /** @description Last day of the period (inclusive). Without dateFrom the period is the 28 days ending on dateTo. At most 366 days in all. */
                dateTo?: string;
                /** @description Timeline granularity: day (default), week (ISO weeks, Monday first) or month. */
                bucket?: "day" | "week" | "month";
                /** @description Comma-separated extras; `timeline` adds views, visitors and clicks per bucket. */
                include?: string;
                /** @description Compare with the previous period of equal length (default true): fills `previous` and each `previousClicks`. false leaves them null. */
                compare?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            period: {
                                /**
                                 * Format: date
                                 * @description First day, inclusive.
                                 */
                                from: string;
                                /**
                                 * Format: date
                                 * @description Last day, inclusive.
                                 */
                                to: string;
                                /** @description The owner's time zone the days are counted in (GET /me analytics.timezone). */
                                timezone: string;
                                bucket: "day" | "week" | "month";
                            };
                            totals: {
                                /** @description Page views by people (crawlers, link previews and prefetches are not counted). */
                                views: number;
                                /** @description Approximate distinct visitors (HyperLogLog). Visitor keys rotate daily, so a person returning on another day counts again. */
                                uniqueVisitors: number;
                                /** @description Clicks on links that leave the page. */
                                clicks: number;
                                /** @description Click-through rate: clicks ÷ views as a fraction (0.034 = 3.4 %); 0 without views. */
                                ctr: number;
                            };
                            previous: {
                                /** Format: date */
                                from: string;
                                /** Format: date */
                                to: string;
                                /** @description Page views by people (crawlers, link previews and prefetches are not counted). */
                                views: number;
                                /** @description Approximate distinct visitors (HyperLogLog). Visitor keys rotate daily, so a person returning on another day counts again. */
                                uniqueVisitors: number;
                                /** @description Clicks on links that leave the page. */
                                clicks: number;
                                /** @description Click-through rate: clicks ÷ views as a fraction (0.034 = 3.4 %); 0 without views. */
                                ctr: number;
                            } | null;
                            /** @description One row per page of the account, oldest page first. */
                            profiles: {
                                profileId: number;
                                login: string;
                                /** @description Page views by people (crawlers, link previews and prefetches are not counted). */
                                views: number;
                                /** @description Approximate distinct visitors (HyperLogLog). Visitor keys rotate daily, so a person returning on another day counts again. */
                                uniqueVisitors: number;
                                /** @description Clicks on links that leave the page. */
                                clicks: number;
                                /** @description Click-through rate: clicks ÷ views as a fraction (0.034 = 3.4 %); 0 without views. */
                                ctr: number;
                            }[];
                            timeline?: {
                                /**
                                 * Format: date
                                 * @description First day of the bucket inside the period.
                                 */
                                date: string;
                                /** @description Page views by people (crawlers, link previews and prefetches are not counted). */
                                views: number;
                                /** @description Approximate distinct visitors (HyperLogLog). Visitor keys rotate daily, so a person returning on another day counts again. */
                                uniqueVisitors: number;
                                /** @description Clicks on links that leave the page. */
                                clicks: number;
                            }[];
                        };
                        meta: {
                            /**
                             * Format: date-time
                             * @description When this answer was computed.
                             */
                            generatedAt: string;
                            /** @description Answers are reused for this long; a repeat within it may not show newer visits. */
                            cacheSeconds: number;
                            /** @description Days of data kept; older days are purged. */
                            retentionDays: number;
                            /**
                             * Format: date
                             * @description The first day with data still kept (today when nothing was recorded yet).
                             */
                            dataStartsAt: string;
                            /** @description Always true: uniques come from HyperLogLog sketches, about 0.8 % error. */
                            uniquesAreApproximate: boolean;
                        };
                    };
                };
            };
            401: components["responses"]["E401"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    getProfileAnalytics: {
        parameters: {
            query?: {
                /** @description A preset in the owner's time zone: today, yesterday, last7 / last28 / last90 (ending today, today included), thisMonth (1st to today), lastMonth. Without period and dates: last28. Not combinable with dateFrom/dateTo. */
                period?: "today" | "yesterday" | "last7" | "last28" | "last90" | "thisMonth" | "lastMonth";
                /** @description First day of the period (inclusive, owner's time zone). Without dateTo the period ends today. */
                dateFrom?: string;
                /** @description Last day of the period (inclusive). Without dateFrom the period is the 28 days ending on dateTo. At most 366 days in all. */
                dateTo?: string;
                /** @description Timeline granularity: day (default), week (ISO weeks, Monday first) or month. */
                bucket?: "day" | "week" | "month";
                /** @description Comma-separated extras; `timeline` adds views, visitors and clicks per bucket. */
                include?: string;
                /** @description Compare with the previous period of equal length (default true): fills `previous` and each `previousClicks`. false leaves them null. */
                compare?: boolean;
            };
            header?: never;
            path: {
                /** @description A numeric profile id or a login. A segment made only of digits is always an id, so a profile whose login is digits only is reached by its id. */
                profileKey: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            profileId: number;
                            login: string;
                            period: {
                                /**
                                 * Format: date
                                 * @description First day, inclusive.
                                 */
                                from: string;
                                /**
                                 * Format: date
                                 * @description Last day, inclusive.
                                 */
                                to: string;
                                /** @description The owner's time zone the days are counted in (GET /me analytics.timezone). */
                                timezone: string;
                                bucket: "day" | "week" | "month";
                            };
                            totals: {
                                /** @description Page views by people (crawlers, link previews and prefetches are not counted). */
                                views: number;
                                /** @description Approximate distinct visitors (HyperLogLog). Visitor keys rotate daily, so a person returning on another day counts again. */
                                uniqueVisitors: number;
                                /** @description Clicks on links that leave the page. */
                                clicks: number;
                                /** @description Click-through rate: clicks ÷ views as a fraction (0.034 = 3.4 %); 0 without views. */
                                ctr: number;
                            };
                            previous: {
                                /** Format: date */
                                from: string;
                                /** Format: date */
                                to: string;
                                /** @description Page views by people (crawlers, link previews and prefetches are not counted). */
                                views: number;
                                /** @description Approximate distinct visitors (HyperLogLog). Visitor keys rotate daily, so a person returning on another day counts again. */
                                uniqueVisitors: number;
                                /** @description Clicks on links that leave the page. */
                                clicks: number;
                                /** @description Click-through rate: clicks ÷ views as a fraction (0.034 = 3.4 %); 0 without views. */
                                ctr: number;
                            } | null;
                            /** @description Every block now on the page, in page order. Clicks of deleted blocks count only in totals. */
                            blocks: {
                                slotId: number;
                                type: string;
                                /** @description The block's own words (title, event or form title, album, picture description…), else its type's name. */
                                title: string;
                                clicks: number;
                                /** @description Approximate distinct visitors who clicked; per-block uniques do not sum to the total. */
                                uniqueClicks: number;
                                previousClicks: number | null;
                            }[];
                            /** @description Every social link now on the profile, by order. */
                            socials: {
                                /** @description The social link's order (how clicks are told apart). */
                                order: number;
                                link: string;
                                icon: string;
                                clicks: number;
                                previousClicks: number | null;
                            }[];
                            /** @description Present with include=timeline; one point per bucket, empty ones included. */
                            timeline?: {
                                /**
                                 * Format: date
                                 * @description First day of the bucket inside the period.
                                 */
                                date: string;
                                /** @description Page views by people (crawlers, link previews and prefetches are not counted). */
                                views: number;
                                /** @description Approximate distinct visitors (HyperLogLog). Visitor keys rotate daily, so a person returning on another day counts again. */
                                uniqueVisitors: number;
                                /** @description Clicks on links that leave the page. */
                                clicks: number;
                            }[];
                            /** @description Short findings: trend of views and click-through rate, top block, blocks never clicked, best day. */
                            insights: {
                                kind: "no_views" | "views_up" | "views_down" | "ctr_up" | "ctr_down" | "top_block" | "blocks_never_clicked" | "best_day";
                                /** @description One plain-English sentence or two, ready to show. */
                                message: string;
                            }[];
                        };
                        meta: {
                            /**
                             * Format: date-time
                             * @description When this answer was computed.
                             */
                            generatedAt: string;
                            /** @description Answers are reused for this long; a repeat within it may not show newer visits. */
                            cacheSeconds: number;
                            /** @description Days of data kept; older days are purged. */
                            retentionDays: number;
                            /**
                             * Format: date
                             * @description The first day with data still kept (today when nothing was recorded yet).
                             */
                            dataStartsAt: string;
                            /** @description Always true: uniques come from HyperLogLog sketches, about 0.8 % error. */
                            uniquesAreApproximate: boolean;
                        };
                    };
                };
            };
            401: components["responses"]["E401"];
            404: components["responses"]["E404"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
}
